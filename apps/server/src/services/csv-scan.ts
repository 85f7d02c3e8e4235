import Boom from '@hapi/boom';

import { checkHeader } from './csv-header.js';

// csv-parse checks about 10 MB/s on this project's machines, half the upload target, mostly in
// building a string for every field. An upload only needs the header, the row count and whether
// the file is well-formed, so uploads are checked by this byte scanner instead, which follows
// csv-parse's rules for the options in csv.ts (a differential test holds it to them: test/csv.test.ts),
// and csv-parse still reads the rows back for runs.

/** A row (or a value left open by a stray quote) may not grow past this, so memory stays flat. */
export const MAX_ROW_BYTES = 1024 * 1024;

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

// Where the scanner is within a field.
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** Inside a quoted field, right after a quote: an escaped quote, or the closing one. */
const QUOTE_SEEN = 3;

// What a field's content says about it being blank (only whitespace, as String.prototype.trim sees it).
const BLANK = 0;
/** Only ASCII whitespace and non-ASCII bytes so far: decoded at the end to decide. */
const MAYBE = 1;
const NOT_BLANK = 2;

const NEED_MORE = -1;

const isAsciiSpace = (byte: number): boolean => byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);

const shown = (byte: number): string => (byte > 0x20 && byte < 0x7f ? `'${String.fromCharCode(byte)}'` : `byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')}`);

/** End of the run of plain bytes from `pos` in an unquoted field (bytes other than , " CR LF). */
const unquotedRunEnd = (buf: Buffer, pos: number): number => {
    let end = pos;
    while (end < buf.length) {
        const byte = buf[end]!;
        if (byte === COMMA || byte === QUOTE || byte === LF || byte === CR) {
            break;
        }

        end += 1;
    }

    return end;
};

/**
 * Length of the row break at `pos` outside quotes (0 if none): CRLF, LF or a lone CR, wherever it
 * appears (csv.ts gives csv-parse the same three). A CR last in `buf` needs the next byte to decide.
 */
const recordDelimiterAt = (buf: Buffer, pos: number, end: boolean): number => {
    const byte = buf[pos];
    if (byte === LF) {
        return 1;
    }

    if (byte !== CR) {
        return 0;
    }

    if (pos + 1 >= buf.length) {
        return end ? 1 : NEED_MORE;
    }

    return buf[pos + 1] === LF ? 2 : 1;
};

const decode = (parts: Buffer[]): string => Buffer.concat(parts).toString('utf8');

/**
 * Line breaks in `bytes` before `end`, each CRLF, LF and lone CR one: every CR, and every LF but one
 * right after a CR. `afterCr`: the byte before `bytes` was a CR.
 */
export const countLineBreaks = (bytes: Uint8Array, end = bytes.length, afterCr = false): number => {
    let count = 0;
    for (let at = 0; at < end; at++) {
        const byte = bytes[at]!;
        if (byte === CR || (byte === LF && (at === 0 ? !afterCr : bytes[at - 1] !== CR))) {
            count += 1;
        }
    }

    return count;
};

const quoteProblem = (line: number, what: string): Boom.Boom =>
    Boom.badRequest(
        `The file is not valid CSV on line ${line}: ${what}. Quote values that contain commas, quotes or line breaks, and double each quote inside them ("").`
    );

/**
 * Checks a CSV as its bytes arrive, chunk by chunk, keeping no more than the header and the field
 * being looked at. Rules (csv-parse's, with the options in csv.ts): comma-separated; `"` quotes,
 * `""` inside quotes is a quote; outside quotes each CRLF, LF and lone CR ends a record, in any mixture;
 * a UTF-8 BOM is dropped; blank lines and records whose fields are all blank are skipped; the first
 * remaining record is the header and every later one must have as many fields.
 */
export class CsvScanner {
    columns: string[] | null = null;
    rows = 0;

    /** The line the scanner has reached (1-based), counting the line breaks in the bytes it holds back. */
    get line(): number {
        return this.#line + (this.#held ? countLineBreaks(this.#held) : 0);
    }

    #bomChecked = false;
    /** Bytes held back for a decision that needs the next chunk (a BOM's start, a CR). */
    #held: Buffer | null = null;
    #state = FIELD_START;
    #line = 1;
    /** The last byte of the previous buffer scanned was a CR: an LF first in this one ends the same line. */
    #afterCr = false;
    #quoteLine = 0;
    #recordLine = 1;
    #expected = -1;

    // The current record and field.
    #fields = 0;
    #recordBytes = 0;
    #fieldBytes = 0;
    #quoted = false;
    #recordBlank = true;
    #fieldBlank = BLANK;
    #headerFields: string[] = [];
    /** Content of the current field, kept while it is needed: header candidates and MAYBE-blank fields. */
    #parts: Buffer[] | null = null;
    /** Where the kept content resumes in the buffer being scanned. */
    #partStart = 0;

    write(chunk: Buffer): void {
        const buf = this.#held ? Buffer.concat([this.#held, chunk]) : chunk;
        this.#held = null;
        this.#scan(buf, false);
    }

    /** Call once the last chunk was written; returns the header and the number of data rows. */
    end(): { columns: string[]; rows: number } {
        const buf = this.#held ?? Buffer.alloc(0);
        this.#held = null;
        this.#scan(buf, true);
        if (this.#state === QUOTED) {
            throw Boom.badRequest(`The file ends inside a quoted value: the double quote opened on line ${this.#quoteLine} is never closed.`);
        }

        if (this.#state === QUOTE_SEEN || this.#fields > 0 || this.#fieldBytes > 0) {
            this.#endField(buf, buf.length);
            this.#endRecord();
        }

        if (this.columns === null) {
            throw Boom.badRequest('The file is empty: a CSV needs a header row naming its columns, then one line per row.');
        }

        return { columns: this.columns, rows: this.rows };
    }

    #scan(input: Buffer, end: boolean): void {
        let buf = input;
        if (!this.#bomChecked) {
            if (buf.length < 3 && !end) {
                this.#held = buf;
                return;
            }

            this.#bomChecked = true;
            if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
                buf = buf.subarray(3);
            }
        }

        if (this.#parts) {
            this.#partStart = 0;
        }

        const length = buf.length;
        for (let pos = 0; pos < length; pos++) {
            const byte = buf[pos]!;
            const state = this.#state;
            // Fast paths: the rest of a field already known not to be blank is only counted.
            if (this.#fieldBlank === NOT_BLANK && (state === UNQUOTED || state === QUOTED)) {
                const end = state === QUOTED ? this.#quotedRunEnd(buf, pos) : unquotedRunEnd(buf, pos);
                if (end > pos) {
                    this.#count(end - pos);
                    pos = end - 1;
                    continue;
                }
            }

            if (state === QUOTED) {
                if (byte === QUOTE) {
                    this.#state = QUOTE_SEEN;
                } else {
                    this.#content(buf, pos, byte);
                }

                continue;
            }

            if (state === QUOTE_SEEN && byte === QUOTE) {
                this.#state = QUOTED;
                this.#content(buf, pos, byte);
                continue;
            }

            if (byte === COMMA) {
                this.#endField(buf, pos);
                this.#state = FIELD_START;
                continue;
            }

            const delimiter = recordDelimiterAt(buf, pos, end);
            if (delimiter === NEED_MORE) {
                this.#hold(buf, pos);
                return;
            }

            if (delimiter > 0) {
                // An empty line is no record at all; anything else, even `""`, is one.
                if (!(state === FIELD_START && this.#fields === 0 && this.#fieldBytes === 0)) {
                    this.#endField(buf, pos);
                    this.#endRecord();
                }

                this.#state = FIELD_START;
                pos += delimiter - 1;
                this.#line += 1;
                this.#recordLine = this.#line;
                continue;
            }

            if (state === QUOTE_SEEN) {
                throw quoteProblem(this.#line, `a closing double quote is followed by ${shown(byte)} instead of a comma or the end of the line`);
            }

            if (byte === QUOTE) {
                if (state === UNQUOTED) {
                    throw quoteProblem(this.#line, 'a double quote appears inside a value that does not start with one');
                }

                this.#state = QUOTED;
                this.#quoted = true;
                this.#quoteLine = this.#line;
                if (this.columns === null) {
                    this.#parts = [];
                    this.#partStart = pos + 1;
                }

                continue;
            }

            this.#state = UNQUOTED;
            if (this.#fieldBytes === 0 && this.columns === null) {
                this.#parts = [];
                this.#partStart = pos;
            }

            this.#content(buf, pos, byte);
        }

        if (this.#parts) {
            this.#parts.push(buf.subarray(this.#partStart));
            this.#partStart = length;
        }

        if (length > 0) {
            this.#afterCr = buf[length - 1] === CR;
        }
    }

    /** Keeps `buf[pos..]` for the next chunk, which decides what it is. */
    #hold(buf: Buffer, pos: number): void {
        if (this.#parts) {
            this.#parts.push(buf.subarray(this.#partStart, pos));
            this.#partStart = pos;
        }

        this.#held = Buffer.from(buf.subarray(pos));
    }

    /** End of the run of bytes from `pos` in a quoted field (up to the next quote), counting its line breaks. */
    #quotedRunEnd(buf: Buffer, pos: number): number {
        // A loop rather than indexOf(): quoted values are short, and a native call costs more than the scan.
        let end = pos;
        while (end < buf.length) {
            const byte = buf[end]!;
            if (byte === QUOTE) {
                break;
            }

            if (byte === CR || (byte === LF && !this.#followsCr(buf, end))) {
                this.#line += 1;
            }

            end += 1;
        }

        return end;
    }

    /** The byte before `buf[pos]` is a CR (quoted, as a CR outside quotes takes an LF after it into its row break). */
    #followsCr(buf: Buffer, pos: number): boolean {
        return pos === 0 ? this.#afterCr : buf[pos - 1] === CR;
    }

    #count(bytes: number): void {
        this.#fieldBytes += bytes;
        this.#recordBytes += bytes;
        if (this.#recordBytes > MAX_ROW_BYTES) {
            throw Boom.badRequest(
                `The row starting on line ${this.#recordLine} is larger than ${MAX_ROW_BYTES / 1024 / 1024} MiB: split it, or close the double quote that runs on.`
            );
        }
    }

    #content(buf: Buffer, pos: number, byte: number): void {
        this.#count(1);
        if (byte === CR || (byte === LF && !this.#followsCr(buf, pos))) {
            this.#line += 1;
        }

        if (this.#fieldBlank === NOT_BLANK) {
            return;
        }

        if (byte < 0x80) {
            if (!isAsciiSpace(byte)) {
                this.#fieldBlank = NOT_BLANK;
                if (this.columns !== null) {
                    this.#parts = null;
                }
            }
        } else if (this.#fieldBlank === BLANK) {
            this.#fieldBlank = MAYBE;
            if (!this.#parts) {
                this.#parts = [];
                this.#partStart = pos;
            }
        }
    }

    #endField(buf: Buffer, pos: number): void {
        let text: string | null = null;
        if (this.#parts) {
            this.#parts.push(buf.subarray(this.#partStart, pos));
            text = decode(this.#parts);
            if (this.#quoted) {
                text = text.slice(0, -1).replaceAll('""', '"');
            }
        }

        if (this.columns === null) {
            this.#headerFields.push(text ?? '');
        }

        const blank = this.#fieldBlank === BLANK || (this.#fieldBlank === MAYBE && text!.trim() === '');
        this.#recordBlank &&= blank;
        this.#fields += 1;
        this.#fieldBytes = 0;
        this.#quoted = false;
        this.#fieldBlank = BLANK;
        this.#parts = null;
    }

    #endRecord(): void {
        if (this.#expected !== -1 && this.#fields !== this.#expected) {
            throw Boom.badRequest(
                `The row ending on line ${this.#line} has ${this.#fields} fields but the header has ${this.#expected}: ` +
                    'every row needs one value per column (quote values that contain commas).'
            );
        }

        if (!this.#recordBlank) {
            if (this.columns === null) {
                this.columns = checkHeader(this.#headerFields);
                this.#expected = this.#fields;
            } else {
                this.rows += 1;
            }
        }

        this.#headerFields = [];
        this.#fields = 0;
        this.#recordBytes = 0;
        this.#recordBlank = true;
    }
}
