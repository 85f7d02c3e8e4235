// Header fields as every relay accepts them and as their sender wrote them.
//
// RFC 5322 §2.1.1: no line over 998 bytes, and 78 where possible. nodemailer's foldLines folds only at
// whitespace, so a long unbroken word (a URL, a row value) stayed one line of any length; and its
// encodeWords encodes only words holding non-ASCII, so row text that looks like an encoded-word
// (`=?UTF-8?B?SGFja2Vk?=`) went out raw and a mail reader decoded it into something the sender
// never wrote. Here a word is sent as it is only when it is printable ASCII, holds no `=?`, and fits
// on a line; the others are sent as RFC 2047 encoded-words, which can be split anywhere between
// characters and which every reader turns back into exactly the text they hold.

/** Lines are folded to this length (RFC 5322's "SHOULD"); an encoded-word is at most 75 (RFC 2047 §2). */
export const LINE = 78;
const WORD = 75;
const CHARSET = 'UTF-8';

const NON_LATIN = /[\x00-\x08\x0B\x0C\x0E-\x1F\u0080-\uFFFF]/g;
const LATIN = /[a-z]/gi;

/** Q when most characters are Latin letters, else B: nodemailer's choice for words and bodies. */
export const textEncoding = (value: string): 'Q' | 'B' => ((value.match(NON_LATIN) ?? []).length < (value.match(LATIN) ?? []).length ? 'Q' : 'B');

/** RFC 2047 §5 rule (3): the characters a Q encoded-word may carry as they are, in any header. */
const Q_SAFE = /^[A-Za-z0-9!*+\-/]$/;

const qEncode = (char: string): string => {
    if (char === ' ') {
        return '_';
    }

    if (Q_SAFE.test(char)) {
        return char;
    }

    return [...Buffer.from(char)].map((byte) => `=${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
};

/**
 * `text` as encoded-words, none longer than 75 characters and the first no longer than `first`,
 * each holding whole characters (never half of a UTF-8 sequence or of a surrogate pair).
 */
export const encodedWords = (text: string, encoding: 'Q' | 'B' = textEncoding(text), first = WORD): string[] => {
    const open = `=?${CHARSET}?${encoding}?`;
    const room = (n: number) => Math.min(Math.max(n, 40), WORD) - open.length - 2;
    const words: string[] = [];
    let chars: string[] = [];
    let size = 0;
    const length = (piece: string[], extra: string): number => {
        if (encoding === 'Q') {
            return size + qEncode(extra).length;
        }

        return Math.ceil((Buffer.byteLength(piece.join('')) + Buffer.byteLength(extra)) / 3) * 4;
    };
    const flush = () => {
        const piece = chars.join('');
        words.push(`${open}${encoding === 'Q' ? chars.map(qEncode).join('') : Buffer.from(piece).toString('base64')}?=`);
        chars = [];
        size = 0;
    };

    for (const char of text) {
        if (chars.length > 0 && length(chars, char) > room(words.length === 0 ? first : WORD)) {
            flush();
        }

        chars.push(char);
        size += encoding === 'Q' ? qEncode(char).length : 0;
    }

    if (chars.length > 0 || words.length === 0) {
        flush();
    }

    return words;
};

/** A word that a reader would show as it is, and that fits on a line after `Name: `. */
const plain = (word: string, longest: number): boolean => /^[\x21-\x7e]*$/.test(word) && !word.includes('=?') && word.length <= longest;

/**
 * `Name:` and the pieces (each to stay whole, after its whitespace) folded into lines of at most 78
 * characters where the pieces allow it. A fold is a CRLF put before whitespace, which unfolding
 * removes again (RFC 5322 §2.2.3); none goes right after the colon.
 */
const fold = (name: string, pieces: { space: string; word: string }[]): string => {
    let out = `${name}:`;
    let line = out.length;
    pieces.forEach(({ space, word }, i) => {
        const gap = i === 0 ? ` ${space}` : space;
        if (line + gap.length + word.length > LINE && gap !== '' && i > 0) {
            out += `\r\n${gap}${word}`;
            line = gap.length + word.length;
        } else {
            out += gap + word;
            line += gap.length + word.length;
        }
    });
    return out;
};

/** Whitespace kept as it is between two plain words; a longer run is encoded with the words around it. */
const SPACE = 8;

/**
 * Unstructured text (a Subject): its plain words as they are, and every run of words that cannot be
 * (non-ASCII, a control character, `=?`, too long for a line) as encoded-words, the whitespace inside
 * the run included, since a reader drops whitespace between two encoded-words. Only space and tab
 * separate words: other Unicode spaces are text to encode.
 */
const pieces = (name: string, text: string): { space: string; word: string }[] => {
    const longest = LINE - name.length - 2;
    const keep = (unit: { space: string; word: string }) => plain(unit.word, longest) && unit.space.length <= SPACE;
    const units = [...text.matchAll(/([ \t]*)([^ \t]*)/g)].filter(([all]) => all !== '').map(([, space = '', word = '']) => ({ space, word }));
    const out: { space: string; word: string }[] = [];
    for (let i = 0; i < units.length; ) {
        const unit = units[i] as { space: string; word: string };
        if (keep(unit)) {
            out.push(unit);
            i++;
            continue;
        }

        let j = i + 1;
        while (j < units.length && !keep(units[j] as { space: string; word: string })) {
            j++;
        }

        // One character of the whitespace before the run separates it from the word before; the rest is text.
        const lead = unit.space;
        const run = lead.slice(1) + units.slice(i, j).map((next, k) => (k === 0 ? next.word : next.space + next.word)).join('');
        const room = out.length === 0 ? LINE - name.length - 2 : WORD;
        encodedWords(run, textEncoding(run), room).forEach((word, k) => {
            out.push({ space: k === 0 ? lead.slice(0, 1) : ' ', word });
        });
        i = j;
    }

    return out;
};

/** One header field, folded. Line breaks in `value` become spaces: a header cannot hold one. */
export const textHeader = (name: string, value: string): string => fold(name, pieces(name, value.replace(/\r\n|\r|\n/g, ' ')));

/**
 * A display name as a phrase (RFC 5322 §3.2.5): kept when it is words of letters and digits, quoted
 * when it is other printable ASCII without `=?`, else as encoded-words (which a quoted string may not
 * hold, RFC 2047 §5 (3)).
 */
export const displayName = (name: string, first = WORD): string[] => {
    if (/^[\w ]*$/.test(name) && name.length <= first) {
        return [name];
    }

    if (/^[\x20-\x7e]*$/.test(name) && !name.includes('=?') && name.length + 2 <= first) {
        return [`"${name.replace(/([\\"])/g, '\\$1')}"`];
    }

    return encodedWords(name, textEncoding(name), first);
};

/** An address header (From, To) for one mailbox: its display name as a phrase, then `<address>`. */
export const addressHeader = (headerName: string, address: string, name?: string): string => {
    if (!name) {
        return fold(headerName, [{ space: '', word: address }]);
    }

    const words = displayName(name, LINE - headerName.length - 2);
    // A kept or quoted name may hold spaces: fold only at the ones between encoded-words.
    return fold(headerName, [...words.map((word, i) => ({ space: i === 0 ? '' : ' ', word })), { space: ' ', word: `<${address}>` }]);
};
