import Boom from '@hapi/boom';

import { badRequest } from './errors.js';

// Rows posted as JSON to a workflow's hook become CSV text, stored and read back as an upload: one
// path for every row a run reads, typed as CSV cells are (numbers, booleans, empty as null).

const MAX_SHOWN = 3;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const cell = (value: unknown): string => {
    const text = value === null || value === undefined ? '' : String(value);
    return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * The rows of a JSON body (an array of objects, or `{rows: [...]}`) as CSV text with a header of
 * every key in order of first appearance; null when there are none. Values must be strings, numbers,
 * booleans or null: a nested value has no CSV cell.
 */
export const jsonRowsToCsv = (body: unknown): string | null => {
    const rows = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.rows) && Object.keys(body).length === 1 ? body.rows : null;
    if (rows === null) {
        throw badRequest('Send the rows as a JSON array of objects, or as {"rows": [...]}, or as a CSV file with Content-Type: text/csv', [
            { path: '', message: 'expected an array of objects or {rows: [...]}' }
        ]);
    }

    const problems: { path: string; message: string }[] = [];
    const columns = new Map<string, true>();
    rows.forEach((row: unknown, i: number) => {
        if (!isRecord(row)) {
            problems.push({ path: `rows[${i}]`, message: 'each row must be an object of column names to values' });
            return;
        }

        for (const [key, value] of Object.entries(row)) {
            columns.set(key, true);
            if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) {
                problems.push({ path: `rows[${i}].${key}`, message: 'a value must be a string, number, boolean or null (a CSV cell), not an object or array' });
            }
        }
    });
    if (problems.length > 0) {
        const shown = problems.slice(0, MAX_SHOWN).map((p) => `${p.path}: ${p.message}`);
        throw badRequest(`Invalid rows (${problems.length} problem${problems.length > 1 ? 's' : ''}): ${shown.join('; ')}`, problems.slice(0, 100));
    }

    if (rows.length === 0) {
        return null;
    }

    if (columns.size === 0) {
        throw Boom.badRequest('The rows have no columns: each row needs at least one key');
    }

    const names = [...columns.keys()];
    const lines = [names.map(cell).join(',')];
    for (const row of rows as Record<string, unknown>[]) {
        // A lone empty cell would be an empty line, which CSV readers skip: quoted, it is a row.
        lines.push(names.length === 1 && cell(row[names[0]!]) === '' ? '""' : names.map((name) => cell(row[name])).join(','));
    }

    return `${lines.join('\r\n')}\r\n`;
};
