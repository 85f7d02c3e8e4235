// Text that came from a server (workflow and file names, error messages, a model's words) reaches a
// terminal, where an escape sequence could retitle the window, write to the clipboard (OSC 52), move the
// cursor over earlier lines, reorder text (bidi overrides), hide it (SGR 8, zero-width characters) or
// forge lines of the CLI's own output (a newline in a name). Such characters are shown, not obeyed.
//
// Server text is neutralised where it enters the CLI's output, BEFORE the CLI adds its own colours and
// layout: `inline()` for names and table cells (a newline there is shown as ^J), `message()` for a
// server's message, whose lines are kept but marked as its continuation. After that, `visible()` runs
// once more on every line written (io.ts), as a net: it keeps newline, tab and colour (SGR) sequences,
// which at that point are the CLI's own.

/** Characters that hide or reorder text, or that a terminal acts on, beyond C0 controls (a character-class body). */
const FORMAT = '\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff';

/** In server text, all of them, and every C0 control. */
const SERVER_HIDDEN = new RegExp(`[\\u0000-\\u001f${FORMAT}]`, 'g');

/** The net for whole output lines: the same, but the CLI's own newlines, tabs and colours (ESC [ … m) pass. */
const HIDDEN = new RegExp(`\\u001b(?!\\[[0-9;]*m)|[\\u0000-\\u0008\\u000b-\\u001a\\u001c-\\u001f${FORMAT}]`, 'g');

const shown = (char: string): string => {
    const code = char.codePointAt(0)!;
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    if (code === 0x7f) return '^?';
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
};

/** `text` with every control character a terminal would act on written out visibly (`^[`, `<U+202E>`). */
export const visible = (text: string): string => text.replace(HIDDEN, shown);

/** Server text for one line (a name, a table cell): every control character shown, newline (`^J`) and colours included. */
export const inline = (text: string): string => String(text).replace(SERVER_HIDDEN, shown);

/** What starts each further line of a server's multi-line message: no line of it can pass for the CLI's own. */
export const CONTINUED = '  | ';

/**
 * A server's message, which may have several lines: each line as `inline()` shows it, every line after
 * the first indented with `CONTINUED`, so none can pass for a line of the CLI's own output.
 */
export const message = (text: string): string =>
    String(text)
        .split(/\r?\n/)
        .map(inline)
        .join(`\n${CONTINUED}`);
