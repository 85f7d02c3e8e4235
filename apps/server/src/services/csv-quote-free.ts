import { Writable } from 'node:stream';

import { type Options, Parser } from 'csv-parse';

// Reading a checked upload back (a run's or a preview's DATA_SOURCE) was mostly csv-parse: 516,000
// rows, 50 MiB, took about 3 of a preview's 4.5 s, most of it turning each field's bytes into a
// string on its own. Most exported CSVs hold no quote at all, and without quotes a record is a line
// split at its commas: that is read here, about ten times faster. At the first `"` the rest of the
// file, from the start of its record, goes to csv-parse with the same options, so quoted fields are
// read exactly as before. The upload was checked when it was stored (separator, column counts, record
// sizes, UTF-8), so the records here are csv-parse's: same line breaks (CRLF, LF, CR), blank lines
// and all-blank records skipped, a BOM dropped (test/csv-quote-free.test.ts compares the two).

const QUOTE = '"';

/** Takes the file's text and hands each record on, as csv-parse would with `options`. */
export class QuoteFreeRecords extends Writable {
    /** The bytes of a character cut by the chunk's end, decoded with the next chunk. */
    #pending: Buffer = Buffer.alloc(0);
    #started = false;
    /** Text after the last complete record: the start of the next one. */
    #carry = '';
    #columns = -1;
    /** Records handed on. */
    #emitted = 0;
    #parser: Parser | null = null;
    #parsed: Promise<void> | null = null;

    constructor(
        private readonly options: Options,
        private readonly onRecord: (record: string[]) => void
    ) {
        super();
    }

    override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
        if (this.#parser) {
            this.#parser.write(chunk, callback);
            return;
        }

        const bytes = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
        const complete = bytes.length - incompleteTail(bytes);
        this.#pending = Buffer.from(bytes.subarray(complete));
        const text = this.#carry + this.#decode(bytes.subarray(0, complete));

        const quote = text.indexOf(QUOTE);
        if (quote !== -1) {
            // The record holding the quote and everything after it: csv-parse's, from the record's start.
            const start = recordStart(text, quote);
            try {
                // Ends at a line break: every record in it is complete.
                this.#lines(text.slice(0, start), true);
            } catch (err) {
                callback(err as Error);
                return;
            }

            this.#handOff(text.slice(start), callback);
            return;
        }

        try {
            this.#carry = this.#lines(text, false);
        } catch (err) {
            callback(err as Error);
            return;
        }

        callback();
    }

    override _final(callback: (error?: Error | null) => void): void {
        if (this.#parser) {
            this.#parser.end();
            (this.#parsed as Promise<void>).then(() => callback(), callback);
            return;
        }

        try {
            this.#lines(this.#carry + this.#decode(this.#pending), true);
        } catch (err) {
            callback(err as Error);
            return;
        }

        callback();
    }

    /** As csv-parse decodes: UTF-8, a BOM at the start of the file dropped. */
    #decode(bytes: Buffer): string {
        let text = bytes.toString('utf8');
        if (!this.#started && text.length > 0) {
            this.#started = true;
            if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        }

        return text;
    }

    /** Hands on the complete records of `text`; returns what follows the last line break (nothing at the end). */
    #lines(text: string, end: boolean): string {
        const length = text.length;
        let from = 0;
        // Each found once: searching again from every line would read a file without CRs once per line.
        let lf = text.indexOf('\n');
        let cr = text.indexOf('\r');
        while (from < length) {
            if (lf !== -1 && lf < from) lf = text.indexOf('\n', from);
            if (cr !== -1 && cr < from) cr = text.indexOf('\r', from);
            let at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
            if (at === -1 || (at === cr && at + 1 === length)) {
                // No break left, or a CR last whose LF may start the next chunk.
                if (!end) {
                    return text.slice(from);
                }

                at = at === -1 ? length : at;
            }

            if (at > from) {
                this.#record(text.slice(from, at).split(','));
            }

            from = at + (at === cr && lf === at + 1 ? 2 : 1);
        }

        return '';
    }

    /** As csv-parse checks and skips: the first record sets the length, an all-blank record is skipped after the check. */
    #record(record: string[]): void {
        if (this.#emitted === 0) {
            this.#columns = record.length;
        } else if (record.length !== this.#columns) {
            throw new Error(`Invalid Record Length: expect ${this.#columns}, got ${record.length}`);
        }

        if (record.every((field) => field.trim() === '')) {
            return;
        }

        this.#emitted++;
        this.onRecord(record);
    }

    override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
        this.#parser?.destroy();
        callback(error);
    }

    #handOff(rest: string, callback: (error?: Error | null) => void): void {
        // #decode dropped a BOM at the start of the file: none is left to drop.
        const parser = new Parser({ ...this.options, bom: false });
        this.#parser = parser;
        // csv-parse takes its first record's length as the file's: records it sees after ours are checked against ours.
        const expected = this.#emitted === 0 ? -1 : this.#columns;
        parser.on('data', (record: string[]) => {
            if (expected !== -1 && record.length !== expected) {
                parser.destroy(new Error(`Invalid Record Length: expect ${expected}, got ${record.length}`));
                return;
            }

            this.onRecord(record);
        });
        this.#parsed = new Promise((resolve, reject) => {
            parser.on('end', resolve);
            parser.on('error', (err) => {
                reject(err);
                this.destroy(err);
            });
        });
        this.#parsed.catch(() => {});
        // The bytes of a character the chunk cut go on as bytes: the next chunk completes it.
        parser.write(Buffer.concat([Buffer.from(rest, 'utf8'), this.#pending]), callback);
    }
}

/** Where the record holding `text[index]` starts: after the line break before it. */
const recordStart = (text: string, index: number): number => {
    const lf = text.lastIndexOf('\n', index);
    const cr = text.lastIndexOf('\r', index);
    return Math.max(lf, cr) + 1;
};

/** How many bytes at the end of `bytes` begin a UTF-8 character that is not complete yet. */
const incompleteTail = (bytes: Buffer): number => {
    for (let back = 1; back <= Math.min(4, bytes.length); back++) {
        const byte = bytes[bytes.length - back] as number;
        if ((byte & 0xc0) !== 0x80) {
            const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
            return needs > back ? back : 0;
        }
    }

    return 0;
};
