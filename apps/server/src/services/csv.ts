import type { Readable } from 'node:stream';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import Boom from '@hapi/boom';
import { type Row, Slicer, typeCsvRow } from '@flowctl/engine';
import { type Options, Parser } from 'csv-parse';

import { PaceChunks } from './csv-pace.js';
import { QuoteFreeRecords } from './csv-quote-free.js';
import { checkHeader } from './csv-header.js';
import { CsvScanner, countLineBreaks, MAX_ROW_BYTES } from './csv-scan.js';
import { SEPARATOR_SAMPLE_BYTES, SEPARATOR_SAMPLE_LINES, separatorProblem } from './csv-separator.js';

export { checkHeader } from './csv-header.js';
export { MAX_ROW_BYTES } from './csv-scan.js';

export interface CsvSummary {
    /** Header names, trimmed, BOM dropped. */
    columns: string[];
    /** Data rows, the header excluded. */
    rows: number;
}

/** How stored uploads are read back; CsvScanner checks uploads by the same rules. */
export const CSV_OPTIONS: Options = {
    bom: true,
    // Each of these ends a record wherever it appears outside quotes (without it, csv-parse takes the
    // first one it meets for the whole file). CRLF first: it is one break, not a CR and an LF, also
    // across two chunks (csv-parse waits for the byte after a CR).
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: false,
    // Blank lines, and rows whose cells are all blank (spreadsheets export trailing ',,,' rows), are not rows.
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    max_record_size: MAX_ROW_BYTES
};

const SAVE_AS_UTF8 = 'Save the file as UTF-8 (in Excel: "CSV UTF-8") and upload it again.';

/** Where the first invalid UTF-8 sequence starts in `bytes`, or -1 if none is complete enough to judge. */
export const firstInvalidUtf8 = (bytes: Uint8Array): number => {
    let i = 0;
    while (i < bytes.length) {
        const lead = bytes[i]!;
        if (lead < 0x80) {
            i += 1;
            continue;
        }

        const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
        if (length === 0) {
            return i;
        }

        // The second byte's range excludes overlong forms and UTF-16 surrogates.
        const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
        const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
        for (let k = 1; k < length; k++) {
            if (i + k >= bytes.length) {
                return -1;
            }

            const byte = bytes[i + k]!;
            if (k === 1 ? byte < low || byte > high : byte < 0x80 || byte > 0xbf) {
                return i;
            }
        }

        i += length;
    }

    return -1;
};

/** How many bytes at the end of `tail` begin a character that is not complete yet. */
const incompleteTail = (tail: Uint8Array): number => {
    for (let back = 1; back <= Math.min(3, tail.length); back++) {
        const byte = tail[tail.length - back]!;
        if ((byte & 0xc0) !== 0x80) {
            const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
            return length > back ? back : 0;
        }
    }

    return 0;
};

/**
 * Passes the bytes of a CSV through unchanged while checking them: UTF-8 (a streaming, fatal
 * TextDecoder), no NUL bytes, then CsvScanner's rules (a header row of unique non-empty names, one
 * field per column on every row). A file separated by semicolons or tabs is refused first
 * (csv-separator.ts), from its first lines, held back from the scanner until they are seen: read
 * with commas, its rows would make a single column and a quoted value an error on line 1. Nothing
 * else is kept but the header, so memory stays flat whatever the file size. Any problem fails the
 * stream with a 400 that says what to fix; once it ends, `summary` is set.
 */
export class CsvInspector extends Transform {
    summary: CsvSummary | null = null;

    readonly #decoder = new TextDecoder('utf-8', { fatal: true });
    readonly #scanner = new CsvScanner();
    #bytes = 0;
    /** The file's first bytes, held for the separator check; null once it is done. */
    #head: Buffer[] | null = [];
    #headBytes = 0;
    #headBreaks = 0;
    /** The last bytes seen (up to 3): a character split across chunks starts here. */
    #tail: Buffer = Buffer.alloc(0);

    /** `checkSeparator` false: CSV the server wrote itself (from a hook's JSON), whose commas are known. */
    constructor({ checkSeparator = true }: { checkSeparator?: boolean } = {}) {
        super();
        if (!checkSeparator) {
            this.#head = null;
        }
    }

    override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
        try {
            this.#checkBytes(chunk);
            if (this.#head) {
                this.#hold(chunk);
            } else {
                this.#scanner.write(chunk);
            }
        } catch (err) {
            callback(err as Error);
            return;
        }

        callback(null, chunk);
    }

    override _flush(callback: TransformCallback): void {
        try {
            this.#decoder.decode();
        } catch {
            const at = this.#bytes - incompleteTail(this.#tail);
            callback(Boom.badRequest(`The file is not UTF-8: it ends in the middle of a character (byte offset ${at}). ${SAVE_AS_UTF8}`));
            return;
        }

        try {
            if (this.#head) {
                this.#release(true);
            }

            this.summary = this.#scanner.end();
        } catch (err) {
            callback(err as Error);
            return;
        }

        callback();
    }

    #hold(chunk: Buffer): void {
        this.#head!.push(chunk);
        this.#headBytes += chunk.length;
        this.#headBreaks += countLineBreaks(chunk);
        // A line more than the sample: the last one may be incomplete.
        if (this.#headBytes >= SEPARATOR_SAMPLE_BYTES || this.#headBreaks > SEPARATOR_SAMPLE_LINES + 1) {
            this.#release(false);
        }
    }

    /** Checks the held start of the file for another separator, then lets the scanner read it. */
    #release(complete: boolean): void {
        const head = Buffer.concat(this.#head!);
        this.#head = null;
        const problem = separatorProblem(head, complete);
        if (problem) {
            throw problem;
        }

        this.#scanner.write(head);
    }

    #checkBytes(chunk: Buffer): void {
        const nul = chunk.indexOf(0);
        if (nul !== -1) {
            const at = this.#bytes + nul;
            throw Boom.badRequest(
                `The file contains a NUL byte at offset ${at} (line ${this.#lineAt(chunk, nul)}): it looks binary or UTF-16, not a UTF-8 CSV. ${SAVE_AS_UTF8}`
            );
        }

        try {
            this.#decoder.decode(chunk, { stream: true });
        } catch {
            // The decoder says only that something is wrong; find where, counting from the last complete character.
            const carried = this.#tail.subarray(this.#tail.length - incompleteTail(this.#tail));
            const index = firstInvalidUtf8(Buffer.concat([carried, chunk]));
            const at = this.#bytes - carried.length + Math.max(index, 0);
            const inChunk = Math.max(at - this.#bytes, 0);
            const byte = at >= this.#bytes ? chunk[inChunk]! : carried[index]!;
            throw Boom.badRequest(
                `The file is not UTF-8: byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} at offset ${at} (line ${this.#lineAt(chunk, inChunk)}) ` +
                    `does not start a valid UTF-8 character. ${SAVE_AS_UTF8}`
            );
        }

        this.#tail = chunk.length >= 3 ? chunk.subarray(chunk.length - 3) : Buffer.concat([this.#tail, chunk]).subarray(-3);
        this.#bytes += chunk.length;
    }

    /** The line of `chunk[index]`: the scanner has counted the lines of the chunks before it (a CR last among them too). */
    #lineAt(chunk: Buffer, index: number): number {
        const reached = this.#head ? 1 + countLineBreaks(Buffer.concat(this.#head)) : this.#scanner.line;
        return reached + countLineBreaks(chunk, index, this.#tail.at(-1) === 0x0d);
    }
}

/**
 * Parses a CSV, typing every cell. `columns` are the header names of a checked upload; null reads
 * and checks the header row here. `checks` (byte limits, the inspector) see the bytes first.
 *
 * The bytes reach the parser in small pieces with pauses between them (PaceChunks), so a large
 * file never holds the event loop. Records are taken as the parser's output rather than through its
 * `on_record` option, which builds two objects of parse statistics for every record (a million rows
 * spent seconds there).
 */
export const readCsvRows = async (source: Readable, columns: string[] | null, ...checks: Transform[]): Promise<Row[]> => {
    const rows: Row[] = [];
    let header = columns;
    let first = true;
    const onRecord = (record: string[]) => {
        if (!first) {
            rows.push(typeCsvRow(header!, record));
            return;
        }

        first = false;
        header ??= checkHeader(record);
    };
    // A checked upload (its columns known) is read by the quote-free splitter, csv-parse from its first
    // quote on. A file checked as it is read (a Drive file) goes through csv-parse whole, whose errors say what is wrong.
    if (columns !== null) {
        await pipeline([source, ...checks, new PaceChunks(), new QuoteFreeRecords(CSV_OPTIONS, onRecord)]);
        return rows;
    }

    const parser = new Parser(CSV_OPTIONS);
    parser.on('data', (record: string[]) => {
        try {
            onRecord(record);
        } catch (err) {
            parser.destroy(err as Error);
        }
    });
    await pipeline([source, ...checks, new PaceChunks(), parser]);
    return rows;
};

/**
 * The rows of a checked upload one at a time, each cell typed: memory stays at a chunk of the file
 * whatever its size, and the bytes are parsed in small pieces (PaceChunks). Stopping the iteration
 * (break) stops reading.
 */
export async function* iterateCsvRows(source: Readable, columns: string[]): AsyncGenerator<Row> {
    const parser = new Parser(CSV_OPTIONS);
    const piped = pipeline(source, new PaceChunks(), parser);
    // Its failure reaches the loop below through the parser; stopping early is not one.
    piped.catch(() => {});
    const slicer = new Slicer();
    try {
        let first = true;
        for await (const record of parser) {
            if (first) {
                first = false;
                continue;
            }

            // A paused parser is driven by this loop's reads, through promise and nextTick callbacks
            // only: without this, a buffered megabyte is parsed and typed without one turn of the loop.
            if (slicer.due) {
                await slicer.pause();
            }

            yield typeCsvRow(columns, record as string[]);
        }

        await piped;
    } finally {
        source.destroy();
        parser.destroy();
    }
}
