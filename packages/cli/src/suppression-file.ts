// Reading a suppression import: one address per line, or a CSV whose header has an `email` column.
// The file is streamed line by line and handed on in batches, so a million addresses cost a batch of
// memory, not the file. Bad lines are reported by line number (the first MAX_LISTED of them; all are counted).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export const MAX_LISTED = 1000;

export interface BadLine {
    line: number;
    value: string;
    problem: string;
}

export interface FileScan {
    good: number;
    bad: number;
    /** The first MAX_LISTED bad lines. */
    listed: BadLine[];
}

/** A CSV cell without its quotes (`"a@b.c"` -> `a@b.c`, `""` inside a quoted cell -> `"`). */
const unquote = (cell: string): string => {
    const trimmed = cell.trim();
    return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1).replace(/""/g, '"') : trimmed;
};

/** Cells of a CSV line, commas inside quotes kept (an address holds none, a name column may). */
const cells = (line: string): string[] => {
    const out: string[] = [];
    let cell = '';
    let quoted = false;
    for (const char of line) {
        if (char === '"') {
            quoted = !quoted;
            cell += char;
        } else if ((char === ',' || char === ';' || char === '\t') && !quoted) {
            out.push(cell);
            cell = '';
        } else {
            cell += char;
        }
    }

    out.push(cell);
    return out.map(unquote);
};

/**
 * Streams `path`, calling `onBatch` with every `batchSize` good addresses (awaited: the file waits for
 * the server), and returns the counts and the bad lines. A first line that is no address but names an
 * `email` column (any case) is a header: that column is read; otherwise the first column.
 */
export const scanSuppressionFile = async (
    path: string,
    batchSize: number,
    problemOf: (address: string) => string | null,
    onBatch?: (emails: string[]) => Promise<void>
): Promise<FileScan> => {
    const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
    const scan: FileScan = { good: 0, bad: 0, listed: [] };
    let column = 0;
    let number = 0;
    let batch: string[] = [];
    for await (const raw of lines) {
        number++;
        const text = number === 1 ? raw.replace(/^\uFEFF/, '') : raw;
        if (text.trim() === '') {
            continue;
        }

        const row = cells(text);
        if (number === 1 && problemOf(row[0] ?? '') !== null) {
            const header = row.findIndex((name) => /^e-?mail( address)?$/i.test(name));
            if (header >= 0) {
                column = header;
                continue;
            }
        }

        const value = row[column] ?? '';
        const problem = problemOf(value);
        if (problem !== null) {
            scan.bad++;
            if (scan.listed.length < MAX_LISTED) {
                scan.listed.push({ line: number, value: value.slice(0, 200), problem });
            }

            continue;
        }

        scan.good++;
        if (onBatch) {
            batch.push(value);
            if (batch.length >= batchSize) {
                await onBatch(batch);
                batch = [];
            }
        }
    }

    if (onBatch && batch.length > 0) {
        await onBatch(batch);
    }

    return scan;
};
