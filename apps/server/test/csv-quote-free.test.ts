import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { Parser } from 'csv-parse';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { CSV_OPTIONS } from '../src/services/csv.js';
import { QuoteFreeRecords } from '../src/services/csv-quote-free.js';

/** `bytes` cut at `cuts`, as a stream of those pieces. */
const pieces = (bytes: Buffer, cuts: number[]): Readable => {
    const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
    const chunks: Buffer[] = [];
    let from = 0;
    for (const cut of [...at, bytes.length]) {
        chunks.push(bytes.subarray(from, cut));
        from = cut;
    }

    return Readable.from(chunks.filter((c) => c.length > 0));
};

const outcome = async (run: (onRecord: (r: string[]) => void) => Promise<void>): Promise<{ records: string[][]; failed: boolean }> => {
    const records: string[][] = [];
    try {
        await run((r) => records.push(r));
        return { records, failed: false };
    } catch {
        return { records, failed: true };
    }
};

const byCsvParse = (bytes: Buffer) =>
    outcome(async (onRecord) => {
        const parser = new Parser(CSV_OPTIONS);
        parser.on('data', onRecord);
        await pipeline(Readable.from([bytes]), parser);
    });

const quoteFree = (bytes: Buffer, cuts: number[]) => outcome((onRecord) => pipeline(pieces(bytes, cuts), new QuoteFreeRecords(CSV_OPTIONS, onRecord)));

// Cells of letters, spaces, digits, a multi-byte character (cut across chunks) and, in some, quotes.
const cell = (quotes: boolean) =>
    fc
        .array(fc.constantFrom('a', 'b', ' ', '7', 'é', '日', ...(quotes ? ['"'] : [])), { maxLength: 5 })
        .map((chars) => chars.join(''));
const breaks = fc.constantFrom('\n', '\r\n', '\r');

const csvText = (quotes: boolean) =>
    fc.integer({ min: 1, max: 4 }).chain((columns) =>
        fc
            .tuple(
                fc.boolean(),
                fc.array(fc.tuple(fc.oneof(fc.array(cell(quotes), { minLength: columns, maxLength: columns }), fc.constant([]), fc.constant(Array(columns).fill(' '))), breaks), {
                    maxLength: 12
                }),
                fc.boolean()
            )
            .map(([bom, lines, finalBreak]) => {
                const text = lines.map(([cells, br], i) => cells.join(',') + (i < lines.length - 1 || finalBreak ? br : '')).join('');
                return (bom ? '\ufeff' : '') + text;
            })
    );

describe('the quote-free reader of checked uploads', () => {
    it('hands on the records csv-parse does, however the bytes are cut, for files without quotes', async () => {
        await fc.assert(
            fc.asyncProperty(csvText(false), fc.array(fc.nat(), { maxLength: 6 }), async (text, cuts) => {
                const bytes = Buffer.from(text, 'utf8');
                const expected = await byCsvParse(bytes);
                // Well-formed files only: a file csv-parse refuses was refused at upload.
                fc.pre(!expected.failed);
                expect(await quoteFree(bytes, cuts)).toEqual(expected);
            }),
            { numRuns: 400 }
        );
    });

    it('and for files with quoted fields, handing the rest to csv-parse at the first quote', async () => {
        await fc.assert(
            fc.asyncProperty(csvText(true), fc.array(fc.nat(), { maxLength: 6 }), async (text, cuts) => {
                const bytes = Buffer.from(text, 'utf8');
                const expected = await byCsvParse(bytes);
                fc.pre(!expected.failed);
                expect(await quoteFree(bytes, cuts)).toEqual(expected);
            }),
            { numRuns: 400 }
        );
    });

    it('reads a quoted field with a comma and a line break after quote-free records', async () => {
        const text = 'name,note\r\nAnn,plain\r\nBob,"a, b\nc"\r\nCy,"say ""hi"""\r\nDee,end';
        const bytes = Buffer.from(text);
        const expected = await byCsvParse(bytes);
        expect(expected.records).toEqual([
            ['name', 'note'],
            ['Ann', 'plain'],
            ['Bob', 'a, b\nc'],
            ['Cy', 'say "hi"'],
            ['Dee', 'end']
        ]);
        for (const cuts of [[], [1], [20], [21, 22], [25, 30, 31]]) {
            expect(await quoteFree(bytes, cuts)).toEqual(expected);
        }
    });
});
