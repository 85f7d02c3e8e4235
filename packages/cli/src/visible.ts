// Text that came from a server (workflow and file names, error messages, a model's words) reaches a
// terminal, where an escape sequence could retitle the window, write to the clipboard (OSC 52), move the
// cursor over earlier lines or reorder text (bidi overrides). Such characters are shown, not obeyed.
// Kept: newline, tab, and colour (SGR) sequences, which are the CLI's own and can do no harm.
const HIDDEN = /\u001b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const shown = (char: string): string => {
    const code = char.codePointAt(0)!;
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    if (code === 0x7f) return '^?';
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
};

/** `text` with every control character a terminal would act on written out visibly (`^[`, `<U+202E>`). */
export const visible = (text: string): string => text.replace(HIDDEN, shown);
