import { isUtf8 } from 'node:buffer';

import Boom from '@hapi/boom';
import { SLICE_MS } from '@flowctl/engine';

import { firstInvalidUtf8 } from './csv.js';
import { MAX_ROW_BYTES } from './csv-scan.js';
import { badRequest } from './errors.js';

// A hook's JSON body may be as large as the hook limit. JSON.parse of all of it, then turning every
// row into CSV, held the event loop for seconds: no other account's request was answered. Here the
// body is decoded a piece at a time, cut into its rows without being parsed (only strings and
// brackets are followed), and the rows are parsed a batch at a time; between slices of this work the
// event loop gets its turn.

const [OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE, QUOTE, BACKSLASH, COMMA, COLON] = [...'[]{}"\\,:'].map((c) => c.charCodeAt(0));

/** Bytes decoded at once: a millisecond or so. */
const DECODE_BYTES = 1024 * 1024;
/** Characters of rows parsed by one JSON.parse: about a millisecond. */
const BATCH_CHARS = 256 * 1024;

const SHAPE = 'Send the rows as a JSON array of objects, or as {"rows": [...]}, or as a CSV file with Content-Type: text/csv';

const shapeProblem = (): Boom.Boom => badRequest(SHAPE, [{ path: '', message: 'expected an array of objects or {rows: [...]}' }]);

const invalid = (at: number, what: string): Boom.Boom => Boom.badRequest(`The JSON body is not valid JSON at character ${at}: ${what}.`);

const isSpace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** Gives way to the event loop once a slice's worth of time has passed since `since`; returns the new start. */
const pace = async (since: number): Promise<number> => {
    if (performance.now() - since < SLICE_MS) {
        return since;
    }

    // setImmediate: pending I/O (other requests) is served first.
    await new Promise((resolve) => setImmediate(resolve));
    return performance.now();
};

/** Where the character that `at` is in begins: `at` less the continuation bytes (10xxxxxx) before it. */
const characterStart = (bytes: Buffer, at: number): number => {
    let start = at;
    while (start > at - 3 && start > 0 && start < bytes.length && (bytes[start]! & 0xc0) === 0x80) {
        start -= 1;
    }

    return start;
};

/**
 * The body as text. isUtf8 checks it all at once (simdutf: milliseconds for the largest body); it is
 * decoded a piece at a time, each piece ending on a character's start. A byte that is not UTF-8 is a
 * 400 giving its offset, found a piece at a time too.
 */
const decode = async (bytes: Buffer): Promise<string> => {
    const valid = isUtf8(bytes);
    const parts: string[] = [];
    let since = performance.now();
    for (let at = 0; at < bytes.length; ) {
        const end = characterStart(bytes, Math.min(bytes.length, at + DECODE_BYTES));
        const piece = bytes.subarray(at, end > at ? end : bytes.length);
        if (valid) {
            parts.push(piece.toString('utf8'));
        } else {
            const index = firstInvalidUtf8(piece);
            if (index !== -1 || at + piece.length === bytes.length) {
                const where =
                    index === -1
                        ? 'it ends in the middle of a character'
                        : `byte 0x${piece[index]!.toString(16).toUpperCase().padStart(2, '0')} at offset ${at + index} does not start a UTF-8 character`;
                throw Boom.badRequest(`The JSON body is not UTF-8 text: ${where}. Send JSON as UTF-8.`);
            }
        }

        at += piece.length;
        since = await pace(since);
    }

    // One flat string: a string joined from pieces is a tree, slow to read a character at a time.
    const text = parts.join('');
    Number(text);
    return text;
};

/** Just past the string that starts (with its quote) at `from`; -1 when the text ends inside it. */
const stringEnd = (text: string, from: number): number => {
    for (let at = from + 1; at < text.length; at++) {
        const code = text.charCodeAt(at);
        if (code === BACKSLASH) {
            at += 1;
        } else if (code === QUOTE) {
            return at + 1;
        }
    }

    return -1;
};

/**
 * Just past the value that starts at `from`, following strings and brackets only (JSON.parse checks
 * the rest); -1 when the text ends first or the value is longer than a CSV row may be.
 */
const valueEnd = (text: string, from: number): number => {
    const first = text.charCodeAt(from);
    if (first === QUOTE) {
        return stringEnd(text, from);
    }

    const limit = Math.min(text.length, from + MAX_ROW_BYTES + 1);
    if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
        let at = from;
        for (let code = text.charCodeAt(at); at < limit && !isSpace(code) && code !== COMMA && code !== CLOSE_BRACKET && code !== CLOSE_BRACE; code = text.charCodeAt(++at)) {}
        return at;
    }

    let depth = 0;
    for (let at = from; at < limit; at++) {
        const code = text.charCodeAt(at);
        if (code === QUOTE) {
            const end = stringEnd(text, at);
            if (end === -1) {
                return -1;
            }

            at = end - 1;
        } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
            depth += 1;
        } else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && --depth === 0) {
            return at + 1;
        }
    }

    return -1;
};

/** Where the rows begin (just past `[`): the body is an array, or an object whose one key is `rows`. */
const rowsStart = (text: string, from: number): { at: number; wrapped: boolean } => {
    let at = from;
    const skipSpace = () => {
        while (isSpace(text.charCodeAt(at))) {
            at += 1;
        }
    };

    skipSpace();
    const wrapped = text.charCodeAt(at) === OPEN_BRACE;
    if (wrapped) {
        at += 1;
        skipSpace();
        const end = text.charCodeAt(at) === QUOTE ? stringEnd(text, at) : -1;
        if (end === -1) {
            throw at >= text.length ? invalid(at, 'it ends before the object is complete') : shapeProblem();
        }

        let key: unknown;
        try {
            key = JSON.parse(text.slice(at, end));
        } catch (err) {
            throw invalid(at, (err as Error).message);
        }

        if (key !== 'rows') {
            throw shapeProblem();
        }

        at = end;
        skipSpace();
        if (text.charCodeAt(at) !== COLON) {
            throw invalid(at, "expected ':' after the key");
        }

        at += 1;
        skipSpace();
    }

    if (text.charCodeAt(at) !== OPEN_BRACKET) {
        throw at >= text.length ? invalid(at, 'it ends before the rows') : shapeProblem();
    }

    return { at: at + 1, wrapped };
};

/** After the rows' closing bracket: nothing, or the end of `{"rows": [...]}`. */
const checkEnd = (text: string, from: number, wrapped: boolean): void => {
    let at = from;
    while (isSpace(text.charCodeAt(at))) {
        at += 1;
    }

    if (wrapped) {
        const code = text.charCodeAt(at);
        if (code === COMMA) {
            throw shapeProblem();
        }

        if (code !== CLOSE_BRACE) {
            throw invalid(at, "expected '}' after the rows");
        }

        at += 1;
        while (isSpace(text.charCodeAt(at))) {
            at += 1;
        }
    }

    if (at < text.length) {
        throw invalid(at, 'there is more after the rows');
    }
};

/** Parses the rows at `spans` (start, end pairs; `first` is the index of the first): as one array, or one by one to say which is wrong. */
const parseBatch = (text: string, spans: number[], first: number): unknown[] => {
    try {
        return JSON.parse(`[${text.slice(spans[0], spans.at(-1))}]`) as unknown[];
    } catch {
        for (let i = 0; i < spans.length; i += 2) {
            try {
                JSON.parse(text.slice(spans[i], spans[i + 1]));
            } catch (err) {
                throw Boom.badRequest(`The JSON body is not valid JSON in rows[${first + i / 2}] (at character ${spans[i]}): ${(err as Error).message}.`);
            }
        }

        // Each row parses alone, so what is between them is wrong: the scan below only lets commas through.
        throw invalid(spans[0]!, 'the rows are not separated by commas');
    }
};

/**
 * The rows of a hook's JSON body (an array, or `{"rows": [...]}`), a batch at a time, each row as
 * JSON.parse gives it (not checked to be an object). The body must be UTF-8. A body of another shape
 * is a 400 saying what to send; invalid JSON a 400 giving the row and where.
 */
export async function* jsonRowBatches(bytes: Buffer): AsyncGenerator<unknown[]> {
    const text = await decode(bytes);
    // A byte order mark is not JSON, but editors on Windows write one.
    const start = rowsStart(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
    let at = start.at;
    let since = performance.now();
    let index = 0;
    let spans: number[] = [];
    let first = 0;
    while (isSpace(text.charCodeAt(at))) {
        at += 1;
    }

    let closed = text.charCodeAt(at) === CLOSE_BRACKET;
    while (!closed) {
        const end = valueEnd(text, at);
        if (end === -1) {
            throw text.length - at > MAX_ROW_BYTES
                ? Boom.badRequest(`rows[${index}] (at character ${at}) is longer than a row may be (${MAX_ROW_BYTES} characters), or not complete.`)
                : invalid(text.length, `it ends inside rows[${index}]`);
        }

        if (end === at) {
            throw invalid(at, `expected rows[${index}]`);
        }

        spans.push(at, end);
        index += 1;
        at = end;
        while (isSpace(text.charCodeAt(at))) {
            at += 1;
        }

        const code = text.charCodeAt(at);
        closed = code === CLOSE_BRACKET;
        if (!closed && code !== COMMA) {
            // A row that is itself invalid (`{"a": ]`) is the better answer: parseBatch names it.
            parseBatch(text, spans, first);
            throw invalid(at, at >= text.length ? 'it ends before the array of rows is closed' : `expected ',' or ']' after rows[${index - 1}]`);
        }

        if (closed || spans.at(-1)! - spans[0]! >= BATCH_CHARS) {
            yield parseBatch(text, spans, first);
            first = index;
            spans = [];
            since = await pace(since);
        }

        if (!closed) {
            at += 1;
            while (isSpace(text.charCodeAt(at))) {
                at += 1;
            }
        }
    }

    checkEnd(text, at + 1, start.wrapped);
}
