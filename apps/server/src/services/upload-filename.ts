import Boom from '@hapi/boom';

// An upload's file name is shown on one line: in lists, in messages, in a terminal. A control character
// (ESC, CSI, BEL, a line break) could retitle a window or move the cursor; a bidi override or isolate
// reorders what follows (`invoice<U+202E>gpj.csv` shows as `invoice` + `vsc.jpg`); an invisible format
// character (zero-width space, soft hyphen, BOM) makes one name look like another. Such a name is
// refused, as a workflow name with a control character is, rather than cleaned: an earlier version
// dropped the controls and kept the rest, which stored `a[2J<U+202E>exe.csv` for `a<ESC>[2J<U+202E>exe.csv`.
//
// So are the other characters Unicode says to draw as nothing (Default_Ignorable_Code_Point): the
// combining grapheme joiner, the Hangul fillers (U+115F, U+3164, U+FFA0) that show as blank space.
//
// Allowed: ZWNJ and ZWJ (U+200C, U+200D), which Persian and Indic words and emoji sequences need and
// which reorder nothing, and variation selectors (emoji presentation), which only choose a glyph.

/** Controls, line and paragraph separators, format and other default-ignorable characters but the joiners and variation selectors, noncharacters, lone surrogates. */
const UNSHOWABLE = /[\p{Cc}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}\p{Cs}]|(?!\u200c|\u200d|[\ufe00-\ufe0f\u{e0100}-\u{e01ef}])[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const UNSHOWABLE_ALL = new RegExp(UNSHOWABLE.source, 'gu');

const MAX_FILENAME_LENGTH = 255;

const codePoint = (char: string): string => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The name an upload is stored under: the last segment of what the client sent (some send a full local
 * path), trimmed, at most 255 characters; `upload.csv` for none. 400 when it holds a character above.
 */
export const uploadFilename = (raw: string | null): string => {
    const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
    const found = UNSHOWABLE.exec(base)?.[0];
    if (found !== undefined) {
        throw Boom.badRequest(
            `The file's name '${shownFilename(base)}' ('filename' of the 'file' field) has ${codePoint(found)}, a control, direction-changing or invisible character, which would show as something else: rename the file to plain text and upload it again`
        );
    }

    const clean = base.trim();
    // `.` and `..` name a directory, never a file.
    return /^\.*$/.test(clean) ? 'upload.csv' : [...clean].slice(0, MAX_FILENAME_LENGTH).join('');
};

/**
 * A stored name as the API shows it: names stored before such characters were refused (they were only
 * stripped of C0 controls) show each remaining one as `<U+202E>`, as the CLI does, never the character.
 */
export const shownFilename = (stored: string): string => stored.replace(UNSHOWABLE_ALL, (char) => `<${codePoint(char)}>`);
