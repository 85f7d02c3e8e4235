import { Readable } from 'node:stream';

import { SLICE_MS } from '@flowctl/engine';

import { badRequest } from './errors.js';
import { jsonRowBatches } from './hook-json.js';

// Rows posted as JSON to a workflow's hook become CSV text, stored and read back as an upload: one
// path for every row a run reads, typed as CSV cells are (numbers, booleans, empty as null).
//
// Every row posted must come back as a row, or the request is refused naming it: CSV drops a record
// whose cells are all blank (uploads.md), has no column without a name, and no NUL character; JavaScript
// strings can hold a lone UTF-16 surrogate, which UTF-8 cannot (it would become U+FFFD unseen).

const MAX_SHOWN = 3;
const MAX_KEPT = 100;
/** CSV text is handed on in pieces of about this size. */
const PIECE_CHARS = 64 * 1024;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isBlank = (value: unknown): boolean => value === null || (typeof value === 'string' && value.trim() === '');

const cell = (value: unknown): string => {
    const text = value === null || value === undefined ? '' : String(value);
    return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** What is wrong with a key or a text value as a CSV cell, if anything. */
const textProblem = (text: string): string | null =>
    text.includes('\0')
        ? 'holds a NUL character (\\u0000), which a CSV cell cannot'
        : LONE_SURROGATE.test(text)
          ? 'holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair), which is not a character'
          : null;

interface Problem {
    path: string;
    message: string;
}

/**
 * The problems of one row; `columns` (trimmed name → the key first seen) gains its keys. CSV trims
 * column names, so two keys that differ only in spaces around them would be one column.
 */
const checkRow = (row: unknown, index: number, columns: Map<string, string>, problems: Problem[]): void => {
    const path = `rows[${index}]`;
    if (!isRecord(row)) {
        problems.push({ path, message: 'each row must be an object of column names to values' });
        return;
    }

    const entries = Object.entries(row);
    if (entries.every(([, value]) => isBlank(value))) {
        problems.push({ path, message: 'every value is empty or null: a row needs at least one value (CSV has no row without one)' });
    }

    for (const [key, value] of entries) {
        const name = key.trim();
        const keyProblem = name === '' ? 'a key (column name) must not be empty' : textProblem(key);
        if (keyProblem) {
            problems.push({ path, message: `the key ${JSON.stringify(key)}: ${keyProblem}` });
            continue;
        }

        const seen = columns.get(name);
        if (seen === undefined) {
            columns.set(name, key);
        } else if (seen !== key) {
            problems.push({ path, message: `the keys ${JSON.stringify(seen)} and ${JSON.stringify(key)} name one column (names are trimmed)` });
        }

        const valueProblem =
            value !== null && !['string', 'number', 'boolean'].includes(typeof value)
                ? 'a value must be a string, number, boolean or null (a CSV cell), not an object or array'
                : typeof value === 'string'
                  ? textProblem(value)
                  : null;
        if (valueProblem) {
            problems.push({ path: `${path}.${key}`, message: valueProblem });
        }
    }
};

/** The CSV text of the rows, a piece at a time, giving way to the event loop between slices of work. */
async function* csvPieces(bytes: Buffer, keys: string[]): AsyncGenerator<Buffer> {
    let text = `${keys.map(cell).join(',')}\r\n`;
    let since = performance.now();
    for await (const batch of jsonRowBatches(bytes)) {
        for (const row of batch as Record<string, unknown>[]) {
            text += `${keys.map((key) => cell(row[key])).join(',')}\r\n`;
            if (text.length >= PIECE_CHARS) {
                yield Buffer.from(text);
                text = '';
            }
        }

        if (performance.now() - since >= SLICE_MS) {
            await new Promise((resolve) => setImmediate(resolve));
            since = performance.now();
        }
    }

    yield Buffer.from(text);
}

/**
 * The rows of a JSON body (an array of objects, or `{rows: [...]}`) as a stream of CSV text with a
 * header of every key in order of first appearance; null when there are none. Values must be strings,
 * numbers, booleans or null: a nested value has no CSV cell. Read twice, without keeping the rows:
 * once to check them and find the columns, once to write them.
 */
export const jsonRowsToCsv = async (bytes: Buffer): Promise<Readable | null> => {
    const problems: Problem[] = [];
    let dropped = 0;
    let count = 0;
    const columns = new Map<string, string>();
    for await (const batch of jsonRowBatches(bytes)) {
        for (const row of batch) {
            checkRow(row, count, columns, problems);
            count += 1;
        }

        // Counted, not kept: a million bad rows must not take a million objects.
        if (problems.length > MAX_KEPT) {
            dropped += problems.length - MAX_KEPT;
            problems.length = MAX_KEPT;
        }
    }

    if (problems.length > 0) {
        const total = problems.length + dropped;
        const shown = problems.slice(0, MAX_SHOWN).map((p) => `${p.path}: ${p.message}`);
        throw badRequest(`Invalid rows in the JSON body (${total} problem${total > 1 ? 's' : ''}): ${shown.join('; ')}`, problems);
    }

    // Every row has a value, so a key: there is a column whenever there is a row.
    return count === 0 ? null : Readable.from(csvPieces(bytes, [...columns.values()]), { objectMode: false });
};
