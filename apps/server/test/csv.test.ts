import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';

import Boom from '@hapi/boom';
import { Parser } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { CSV_OPTIONS, CsvInspector, checkHeader, firstInvalidUtf8, iterateCsvRows, readCsvRows } from '../src/services/csv.js';
import { PaceChunks, PIECE_BYTES } from '../src/services/csv-pace.js';
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

/** `bytes` cut in two at every offset: each row break may fall on either side of a cut. */
const everyCut = (bytes: Buffer): number[][] => [...bytes.keys(), bytes.length].map((cut) => [cut]);

describe('mixed line endings: CRLF, LF and a lone CR each end a row, in any mixture', () => {
    // The outside tester's three files, and quoted values whose line breaks stay as they are.
    const files: [string, string[][]][] = [
        [
            'name,email\nAda,ada@example.com\r\nBob,bob@example.com\r\n',
            [
                ['name', 'email'],
                ['Ada', 'ada@example.com'],
                ['Bob', 'bob@example.com']
            ]
        ],
        ['a\r\n1\r2\n3', [['a'], ['1'], ['2'], ['3']]],
        [
            'a,b\r\n1,2\n3,4\n',
            [
                ['a', 'b'],
                ['1', '2'],
                ['3', '4']
            ]
        ],
        [
            'a,b\n"x\r\ny","p\rq"\r\n"m\nn",z\r',
            [
                ['a', 'b'],
                ['x\r\ny', 'p\rq'],
                ['m\nn', 'z']
            ]
        ]
    ];

    it('splits the records as runs read them (csv-parse with CSV_OPTIONS)', () => {
        for (const [text, records] of files) {
            expect(parse(text, CSV_OPTIONS)).toEqual(records);
        }
    });

    it('counts the same rows at upload, however the bytes are cut', () => {
        for (const [text, records] of files) {
            const bytes = Buffer.from(text);
            const expected = { columns: records[0], rows: records.length - 1 };
            expect(byScanner(bytes, [...bytes.keys()])).toEqual(expected);
            for (const cuts of everyCut(bytes)) {
                expect(byScanner(bytes, cuts)).toEqual(expected);
            }
        }
    });

    it('names the right line in the scanner’s errors, however the bytes are cut', () => {
        const cases: [string, string][] = [
            // Lines: 1 header, 2–3 and 4–5 two rows with quoted breaks (CRLF, then CR), 6 a ragged row.
            ['a,b\n"x\r\ny",1\r"p\rq",2\n3\r\n', 'The row ending on line 6 has 1 fields but the header has 2'],
            ['a,b\r\n1,2\n3\r4,5\n', 'The row ending on line 3 has 1 fields but the header has 2'],
            ['a\r1\n"open\r\n2\r', 'the double quote opened on line 3 is never closed'],
            ['a\r\n1\r"x"y\n', 'not valid CSV on line 3: a closing double quote']
        ];
        for (const [text, message] of cases) {
            const bytes = Buffer.from(text);
            for (const cuts of [...everyCut(bytes), [...bytes.keys()]]) {
                const scanner = new CsvScanner();
                let at = 0;
                expect(() => {
                    for (const cut of cuts) {
                        scanner.write(bytes.subarray(at, cut));
                        at = cut;
                    }

                    scanner.write(bytes.subarray(at));
                    scanner.end();
                }, `${JSON.stringify(text)} cut at ${cuts}`).toThrow(message);
            }
        }
    });

    it('names the right line of a NUL byte or a bad UTF-8 byte, however the bytes are cut', async () => {
        // Line 4 starts after a lone CR, a CRLF and an LF; "q\r\nr" is one quoted value on lines 4–5.
        const nul = Buffer.from('a\r1\r\n2\n"q\r\nr"\r\x00\n');
        const latin1 = Buffer.concat([Buffer.from('a\r1\r\n2\n"q\r\nr"\r'), Buffer.from([0xe9]), Buffer.from('\n')]);
        for (let split = 0; split <= nul.length; split++) {
            await expect(inspect([nul.subarray(0, split), nul.subarray(split)])).rejects.toThrow('NUL byte at offset 14 (line 6)');
            await expect(inspect([latin1.subarray(0, split), latin1.subarray(split)])).rejects.toThrow('byte 0xE9 at offset 14 (line 6)');
        }

        await expect(inspect(bytewise(nul))).rejects.toThrow('NUL byte at offset 14 (line 6)');
    });

    describe('a CRLF cut between two of the pieces the parser is fed (PaceChunks) is one row break', () => {
        // Header LF, rows CRLF, with the CR of one row the last byte of the first piece; then rows
        // ended by a lone CR and by LF.
        const rows: string[][] = [];
        let text = 'name,email\n';
        for (let i = 0; text.length < PIECE_BYTES - 100; i++) {
            rows.push([`n${i}`, `u${i}@example.com`]);
            text += `n${i},u${i}@example.com\r\n`;
        }

        const padded = `n${'x'.repeat(PIECE_BYTES - 1 - text.length - ',pad@example.com'.length - 1)}`;
        rows.push([padded, 'pad@example.com']);
        text += `${padded},pad@example.com\r\n`;
        for (let i = 0; i < 10; i++) {
            rows.push([`cr${i}`, `cr${i}@example.com`], [`lf${i}`, `lf${i}@example.com`]);
            text += `cr${i},cr${i}@example.com\rlf${i},lf${i}@example.com\n`;
        }

        // No break at the end, which csv-parse would count as an empty line: any empty line is the cut's.
        const bytes = Buffer.from(text.slice(0, -1));
        const typed = rows.map(([name, email]) => ({ name, email }));

        it('to csv-parse: every row, no value with a CR, no empty record between', async () => {
            expect([bytes[PIECE_BYTES - 1], bytes[PIECE_BYTES]]).toEqual([0x0d, 0x0a]);
            const parser = new Parser(CSV_OPTIONS);
            const records: string[][] = [];
            parser.on('data', (record: string[]) => records.push(record));
            await pipeline(Readable.from([bytes]), new PaceChunks(), parser);
            expect(records).toEqual([['name', 'email'], ...rows]);
            expect(parser.info).toMatchObject({ empty_lines: 0, lines: rows.length + 1 });
        });

        it('to readCsvRows and iterateCsvRows: the same rows, typed', async () => {
            expect(await readCsvRows(Readable.from([bytes]), null)).toEqual(typed);
            const iterated = [];
            for await (const row of iterateCsvRows(Readable.from([bytes]), ['name', 'email'])) {
                iterated.push(row);
            }

            expect(iterated).toEqual(typed);
        });

        it('to the upload scanner cut there: the same row count, and the right line of a ragged row after it', () => {
            expect(byScanner(bytes, [PIECE_BYTES])).toEqual({ columns: ['name', 'email'], rows: rows.length });
            const ragged = Buffer.concat([bytes, Buffer.from('\noops\r\n')]);
            const scanner = new CsvScanner();
            scanner.write(ragged.subarray(0, PIECE_BYTES));
            expect(() => {
                scanner.write(ragged.subarray(PIECE_BYTES));
                scanner.end();
            }).toThrow(`The row ending on line ${rows.length + 2} has 1 fields`);
        });
    });
});
