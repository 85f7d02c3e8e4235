// PostgreSQL cannot store every JavaScript string: text refuses NUL (U+0000), and json/jsonb also
// refuse a UTF-16 surrogate that is not part of a pair (JSON.stringify writes it as `\ud800`).
// Such text fails the statement that carries it, so it is refused at the edge or repaired before
// it is stored.

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/** Why `text` cannot be stored, or null when it can. */
export function unstorableTextProblem(text: string): string | null {
    const found = UNSTORABLE.exec(text);
    if (!found) return null;
    const code = found[0].charCodeAt(0);
    if (code === 0) return 'contains a NUL character (U+0000), which cannot be stored: remove it';
    const hex = code.toString(16).toUpperCase();
    return `contains a lone UTF-16 surrogate (U+${hex}) that is not a character: send well-formed Unicode text`;
}

/** `text` with each NUL and lone surrogate replaced by U+FFFD (the replacement character). */
export function toStorableText(text: string): string {
    return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, '\ufffd') : text;
}

export interface UnstorableText {
    /** Where it is: `graph.nodes[1].data.subject`; the key itself when a key is at fault. */
    path: string;
    message: string;
}

const childPath = (parent: string, key: string | number): string =>
    typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;

/**
 * The first string (value or object key) in a JSON-like value that cannot be stored. Walks with
 * its own stack, so a deeply nested value cannot overflow the call stack.
 */
export function findUnstorableText(value: unknown, path = ''): UnstorableText | null {
    const stack: Array<[unknown, string]> = [[value, path]];
    while (stack.length > 0) {
        const [current, at] = stack.pop() as [unknown, string];
        if (typeof current === 'string') {
            const problem = unstorableTextProblem(current);
            if (problem) return { path: at, message: `'${at}' ${problem}` };
        } else if (Array.isArray(current)) {
            for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], childPath(at, i)]);
        } else if (current !== null && typeof current === 'object') {
            const entries = Object.entries(current);
            for (let i = entries.length - 1; i >= 0; i--) {
                const [key, child] = entries[i] as [string, unknown];
                const keyPath = childPath(at, key);
                const problem = unstorableTextProblem(key);
                if (problem) return { path: keyPath, message: `a field name in '${at || '(body)'}' ${problem}` };
                stack.push([child, keyPath]);
            }
        }
    }
    return null;
}

/** A copy of a JSON-like value whose strings and keys can all be stored (see toStorableText). */
export function toStorableValue<T>(value: T): T {
    if (typeof value === 'string') return toStorableText(value) as T;
    if (Array.isArray(value)) return value.map((item) => toStorableValue(item)) as T;
    if (value !== null && typeof value === 'object') {
        const copy: Record<string, unknown> = {};
        for (const [key, child] of Object.entries(value)) {
            Object.defineProperty(copy, toStorableText(key), { value: toStorableValue(child), enumerable: true, writable: true, configurable: true });
        }
        return copy as T;
    }
    return value;
}
