// Small helpers for building messages a person can act on.

/** `'value'`, shortened so one bad cell cannot turn an error message into megabytes. */
export function quote(value: string, max = 80): string {
    const shown = value.length > max ? `${value.slice(0, max)}…` : value;
    return `'${shown}'`;
}

/** Closest candidate by edit distance, for "did you mean" hints; null when nothing is close. */
export function closest(word: string, candidates: readonly string[]): string | null {
    let best: string | null = null;
    let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
    for (const candidate of candidates) {
        const d = editDistance(word.toLowerCase(), candidate.toLowerCase(), bestDistance);
        if (d < bestDistance) {
            best = candidate;
            bestDistance = d;
        }
    }
    return best;
}

const rowA = new Int32Array(65);
const rowB = new Int32Array(65);

/** Levenshtein distance, or `cap` once it is certain to reach it. Words over 64 characters are never close. */
function editDistance(a: string, b: string, cap: number): number {
    if (Math.abs(a.length - b.length) >= cap || a.length > 64 || b.length > 64) return cap;
    let previous = rowA;
    let current = rowB;
    for (let j = 0; j <= b.length; j++) previous[j] = j;
    for (let i = 1; i <= a.length; i++) {
        current[0] = i;
        for (let j = 1; j <= b.length; j++) {
            const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
            current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
        }
        [previous, current] = [current, previous];
    }
    return previous[b.length] as number;
}

export function listNames(names: readonly string[]): string {
    return names.length === 0 ? '(none)' : names.map((n) => `'${n}'`).join(', ');
}

export function describeType(value: unknown): string {
    if (value === null || value === undefined) return String(value);
    if (Array.isArray(value)) return 'an array';
    if (typeof value === 'object') return 'an object';
    return `a ${typeof value}`;
}

/** "a FILTER node", "an OUTPUT node". */
export function withArticle(word: string): string {
    return `${/^[AEIOU]/i.test(word) ? 'an' : 'a'} ${word}`;
}
