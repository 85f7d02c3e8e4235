import { Readable } from 'node:stream';

import { typeCsvRow } from '@flowctl/engine';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { CSV_OPTIONS, iterateCsvRows, readCsvRows } from '../src/services/csv.js';
import { PIECE_BYTES } from '../src/services/csv-pace.js';

// An upload read back from PostgreSQL arrives in 1 MiB chunks (a file in 64 KiB ones): parsing one
// such chunk must not hold the event loop until its last row is typed.
const ROWS = 250_000;
const oneChunk = () => Readable.from([Buffer.from(`a,b\n${'1,2\n'.repeat(ROWS)}`)]);

describe('reading an upload gives way to the event loop', () => {
    it('iterateCsvRows: a callback scheduled at the first row runs long before the last', async () => {
        let seen = 0;
        let seenWhenCalledBack = -1;
        for await (const row of iterateCsvRows(oneChunk(), ['a', 'b'])) {
            if (seen === 0) {
                expect(row).toEqual({ a: 1, b: 2 });
                // A reader that is slow at first (or a loaded machine) lets the pacer hand every piece
                // on before the parser wants them: from then on only the reader can give way.
                await new Promise((resolve) => setTimeout(resolve, 100));
                setImmediate(() => {
                    seenWhenCalledBack = seen;
                });
            }

            seen += 1;
        }

        expect(seen).toBe(ROWS);
        expect(seenWhenCalledBack).toBeGreaterThan(0);
        expect(seenWhenCalledBack).toBeLessThan(ROWS);
    });

    it('readCsvRows: a callback scheduled as the bytes arrive runs before the rows are read', async () => {
        const source = oneChunk();
        let calledBack = false;
        source.once('data', () => setImmediate(() => (calledBack = true)));
        const reading = readCsvRows(source, ['a', 'b']);
        const rows = await reading;
        // The callback ran while the rows were parsed, not after: the reading resolved after it.
        expect(calledBack).toBe(true);
        expect(rows).toHaveLength(ROWS);
        expect(rows[ROWS - 1]).toEqual({ a: 1, b: 2 });
    });

    it('cutting the bytes into pieces changes no row: quoted line breaks and multi-byte characters across the cuts', async () => {
        const lines = ['name,note,n'];
        for (let i = 0; lines.join('\n').length < 3 * PIECE_BYTES; i++) {
            lines.push(`"naïve ${i}, 😀","line\nbreak ""${i}""",${i % 7 === 0 ? '' : i}`);
        }

        const text = `${lines.join('\n')}\n`;
        const expected = (parse(text, CSV_OPTIONS) as string[][]).slice(1).map((record) => typeCsvRow(['name', 'note', 'n'], record));
        expect(await readCsvRows(Readable.from([Buffer.from(text)]), null)).toEqual(expected);
        const iterated = [];
        for await (const row of iterateCsvRows(Readable.from([Buffer.from(text)]), ['name', 'note', 'n'])) {
            iterated.push(row);
        }

        expect(iterated).toEqual(expected);
    });

    it('a bad header read by readCsvRows still fails with what to fix', async () => {
        await expect(readCsvRows(Readable.from([Buffer.from('a,a\n1,2\n')]), null)).rejects.toThrow("The header row names 'a' twice");
    });
});
