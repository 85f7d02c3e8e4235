import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';

import Boom from '@hapi/boom';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { CSV_OPTIONS, CsvInspector, checkHeader, firstInvalidUtf8 } from '../src/services/csv.js';
import { CsvScanner } from '../src/services/csv-scan.js';

/** Runs `chunks` through an inspector; resolves to its summary, or rejects with its error. */
const inspect = async (chunks: Buffer[]) => {
    const inspector = new CsvInspector();
    const out: Buffer[] = [];
    await pipeline(
        Readable.from(chunks),
        inspector,
        new Writable({
            write(chunk, _encoding, done) {
                out.push(chunk);
                done();
            }
        })
    );
    expect(Buffer.concat(out).equals(Buffer.concat(chunks))).toBe(true);
    return inspector.summary;
};

const bytewise = (bytes: Buffer): Buffer[] => [...bytes].map((byte) => Buffer.from([byte]));

describe('CsvInspector', () => {
    const csv = Buffer.from('naïve,€uro,😀\n"a, b","line\nbreak",ü\n1,2,3\n');

    it('passes the bytes through unchanged and counts rows, whatever the chunking', async () => {
        for (let split = 0; split <= csv.length; split++) {
            expect(await inspect([csv.subarray(0, split), csv.subarray(split)])).toEqual({ columns: ['naïve', '€uro', '😀'], rows: 2 });
        }

        expect(await inspect(bytewise(csv))).toEqual({ columns: ['naïve', '€uro', '😀'], rows: 2 });
    });

    it('finds the offset of a bad sequence split across one-byte chunks', async () => {
        const bad = Buffer.concat([Buffer.from('h\n€'), Buffer.from([0xe2, 0x82]), Buffer.from('x\n')]);
        await expect(inspect(bytewise(bad))).rejects.toThrow('byte 0xE2 at offset 5 (line 2)');
    });

    it('rejects UTF-16 surrogates and overlong forms encoded in UTF-8', async () => {
        await expect(inspect([Buffer.from([0x61, 0x0a, 0xed, 0xa0, 0x80, 0x0a])])).rejects.toThrow('byte 0xED at offset 2 (line 2)');
        await expect(inspect([Buffer.from([0x61, 0xc0, 0x80, 0x0a])])).rejects.toThrow('byte 0xC0 at offset 1 (line 1)');
    });

    it('rejects a file that ends in the middle of a character', async () => {
        await expect(inspect([Buffer.from('a\n'), Buffer.from([0xf0, 0x9f])])).rejects.toThrow('ends in the middle of a character (byte offset 2)');
    });

    it('rejects a row larger than 1 MiB (an unclosed quote cannot eat the memory)', async () => {
        const runaway = Buffer.from(`a\n"${'x'.repeat(1024 * 1024 + 10)}\n`);
        await expect(inspect([runaway])).rejects.toThrow(/larger than 1 MiB/);
    });
});

describe('firstInvalidUtf8', () => {
    it('agrees with Node’s validator on arbitrary bytes', () => {
        fc.assert(
            fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
                const at = firstInvalidUtf8(bytes);
                if (at === -1) {
                    // Valid, or invalid only because the last character is cut short.
                    const trimmed = [0, 1, 2, 3].some((cut) => cut <= bytes.length && isUtf8(bytes.subarray(0, bytes.length - cut)));
                    expect(trimmed).toBe(true);
                } else {
                    expect(isUtf8(bytes)).toBe(false);
                    expect(isUtf8(bytes.subarray(0, at))).toBe(true);
                }
            }),
            { numRuns: 2000 }
        );
    });

    it('finds nothing wrong in any valid string', () => {
        fc.assert(
            fc.property(fc.string({ unit: 'grapheme' }), (text) => {
                expect(firstInvalidUtf8(Buffer.from(text))).toBe(-1);
            })
        );
    });
});

/** What csv-parse, as runs read uploads back, makes of `bytes`: the header and row count, or a rejection. */
const byCsvParse = (bytes: Buffer) => {
    try {
        const records = parse(bytes, CSV_OPTIONS) as string[][];
        return records.length === 0 ? 'rejected' : { columns: checkHeader(records[0]!), rows: records.length - 1 };
    } catch {
        return 'rejected';
    }
};

/** What the upload scanner makes of `bytes`, fed in pieces cut at `cuts`. */
const byScanner = (bytes: Buffer, cuts: number[]) => {
    const scanner = new CsvScanner();
    try {
        let at = 0;
        for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
            scanner.write(bytes.subarray(at, cut));
            at = cut;
        }

        scanner.write(bytes.subarray(at));
        return scanner.end();
    } catch (err) {
        if (!Boom.isBoom(err) || err.output.statusCode !== 400) {
            throw err;
        }

        return 'rejected';
    }
};

describe('CsvScanner', () => {
    const tokens = ['a', 'b', 'é', ' ', '\t', ',', ',', '"', '""', '\n', '\n', '\r', '\r\n', '\u00a0', '\u3000', '\ufeff', '\u2028', 'x y'];
    const csvText = fc.tuple(fc.boolean(), fc.array(fc.constantFrom(...tokens), { maxLength: 40 })).map(([bom, parts]) => `${bom ? '\ufeff' : ''}${parts.join('')}`);

    it('accepts and rejects exactly what csv-parse does, with the same header and row count, however the bytes are cut', () => {
        fc.assert(
            fc.property(csvText, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
                const bytes = Buffer.from(text);
                const expected = byCsvParse(bytes);
                expect(byScanner(bytes, cuts)).toEqual(expected);
                expect(byScanner(bytes, [...bytes.keys()])).toEqual(expected);
            }),
            { numRuns: 5000 }
        );
    });

    it('agrees with csv-parse on well-formed files too', () => {
        const cell = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 6 }), fc.constantFrom('', ' ', '"q"', 'a,b', 'l1\nl2'));
        const quote = (value: string) => (/[",\r\n]/.test(value) || value.trim() !== value ? `"${value.replaceAll('"', '""')}"` : value);
        fc.assert(
            fc.property(fc.integer({ min: 1, max: 4 }), fc.constantFrom('\n', '\r\n', '\r'), fc.array(fc.array(cell, { minLength: 4, maxLength: 4 }), { maxLength: 8 }), (width, eol, table) => {
                const text = table.map((row) => row.slice(0, width).map(quote).join(',')).join(eol);
                const bytes = Buffer.from(text.replaceAll('\u0000', ''));
                expect(byScanner(bytes, [7, 19])).toEqual(byCsvParse(bytes));
            }),
            { numRuns: 2000 }
        );
    });

    it('names the line of a quote that is never closed, and of a stray quote', () => {
        expect(() => byScannerOrThrow('a,b\n1,2\n"open,3\n4,5\n')).toThrow('the double quote opened on line 3 is never closed');
        expect(() => byScannerOrThrow('a,b\r\n1,2\r\nx"y,3\r\n')).toThrow('not valid CSV on line 3: a double quote appears inside a value');
        expect(() => byScannerOrThrow('a,b\n"x"y,3\n')).toThrow("not valid CSV on line 2: a closing double quote is followed by 'y'");
    });
});

const byScannerOrThrow = (text: string) => {
    const scanner = new CsvScanner();
    scanner.write(Buffer.from(text));
    return scanner.end();
};
