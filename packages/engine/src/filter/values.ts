// Comparison semantics of the filter language, kept apart from the compiler so that they read as a
// specification:
// - a number compared with a numeric string compares numerically ('42' > 5 is true);
// - two strings compare as strings (code-unit order for < > <= >=);
// - == and != are strict after that coercion: null == null, 1 != true, 'a' != 'A';
// - < > <= >= hold only between two numbers or two strings; anything else (null included) is false;
// - truthiness (for !, && and ||, and a bare field) is JavaScript's: null, false, 0, '' and NaN are false.

const NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** The number a numeric string denotes, or null. Decimal notation only: no hex, no 'Infinity'. */
export function numericValue(text: string): number | null {
    if (!NUMERIC.test(text)) return null;
    const n = Number(text);
    return Number.isFinite(n) ? n : null;
}

/** Applies the number/numeric-string coercion, returning the pair to compare. */
function coerce(a: unknown, b: unknown): [unknown, unknown] {
    if (typeof a === 'number' && typeof b === 'string') {
        const n = numericValue(b);
        return n === null ? [a, b] : [a, n];
    }
    if (typeof a === 'string' && typeof b === 'number') {
        const n = numericValue(a);
        return n === null ? [a, b] : [n, b];
    }
    return [a, b];
}

export function looseEquals(a: unknown, b: unknown): boolean {
    if (a === undefined) a = null;
    if (b === undefined) b = null;
    const [x, y] = coerce(a, b);
    return x === y;
}

/** Returns -1, 0 or 1 when the values are ordered (two numbers or two strings), else null. */
export function order(a: unknown, b: unknown): -1 | 0 | 1 | null {
    const [x, y] = coerce(a, b);
    if ((typeof x === 'number' && typeof y === 'number') || (typeof x === 'string' && typeof y === 'string')) {
        if (x < y) return -1;
        if (x > y) return 1;
        return x === y ? 0 : null;
    }
    return null;
}

export function truthy(value: unknown): boolean {
    return Boolean(value);
}
