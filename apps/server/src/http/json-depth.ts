export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max` levels. Iterative: the point
 * is to refuse, before joi or the engine walk it recursively, a body that would overflow their stack.
 */
export const nestedDeeperThan = (value: unknown, max: number): boolean => {
    const stack: [unknown, number][] = [[value, 0]];
    while (stack.length > 0) {
        const [current, depth] = stack.pop()!;
        if (current === null || typeof current !== 'object') {
            continue;
        }

        if (depth + 1 > max) {
            return true;
        }

        for (const inner of Array.isArray(current) ? current : Object.values(current)) {
            if (inner !== null && typeof inner === 'object') {
                stack.push([inner, depth + 1]);
            }
        }
    }

    return false;
};
