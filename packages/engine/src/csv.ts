// CSV cells are typed once, at load, so filters and templates see numbers and booleans.
// The rules favour never corrupting data over converting aggressively:
// - integers and plain decimals become numbers: `42`, `-7`, `0`, `3.14`, `-0.5`;
// - not numbers, kept as strings: a leading `+` (phone numbers), leading zeros (`007`, zip codes),
//   `.5` and `5.`, exponents (`1e3`, part codes), thousands separators, `NaN`, `Infinity`, integers
//   beyond Number.MAX_SAFE_INTEGER and decimals with more than 15 significant digits (ids and values
//   a double cannot hold exactly);
// - `true` / `false` in any case become booleans;
// - an empty or whitespace-only cell becomes null;
// - detection ignores surrounding whitespace, but a cell that stays a string keeps it verbatim.

import type { CellValue, Row } from './types.js';

const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const MAX_SIGNIFICANT_DIGITS = 15;

export function typeCsvValue(raw: string): CellValue {
    const text = raw.trim();
    if (text === '') return null;
    const first = text.charCodeAt(0);
    // Cheap pre-check: only '-' or a digit can start a number, only t/f a boolean.
    if (first === 45 || (first >= 48 && first <= 57)) {
        if (DECIMAL.test(text)) {
            const n = Number(text);
            if (isExact(text, n)) return n === 0 ? 0 : n;
        }
        return raw;
    }
    if (text.length === 4 || text.length === 5) {
        const lower = text.toLowerCase();
        if (lower === 'true') return true;
        if (lower === 'false') return false;
    }
    return raw;
}

function isExact(text: string, n: number): boolean {
    if (!text.includes('.')) return Number.isSafeInteger(n);
    const digits = text.replace(/^-?0*/, '').replace('.', '').replace(/^0+/, '');
    return digits.length <= MAX_SIGNIFICANT_DIGITS;
}

/** A row keyed by header; a missing cell is null, cells beyond the headers are ignored. */
export function typeCsvRow(headers: readonly string[], cells: readonly string[]): Row {
    const row: Row = {};
    for (let i = 0; i < headers.length; i++) {
        const header = headers[i] as string;
        const cell = cells[i];
        const value = cell === undefined ? null : typeCsvValue(cell);
        if (header === '__proto__') {
            // Plain assignment would set the prototype instead of creating a field.
            Object.defineProperty(row, header, { value, enumerable: true, writable: true, configurable: true });
        } else {
            row[header] = value;
        }
    }
    return row;
}
