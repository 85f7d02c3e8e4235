// Keyset paging over (created_at, id), newest first, for lists that page like the runs list: a page
// starts after the row its cursor names, so rows added or removed meanwhile shift nothing. The
// cursor carries the row's own created_at (in microseconds, as PostgreSQL keeps it) and id, so it
// stays valid after that row is deleted.

export interface Keyset {
    /** created_at in microseconds since the epoch, as decimal text (beyond 2^53). */
    at: string;
    id: string;
}

export interface PageRequest {
    limit: number;
    after: Keyset | null;
}

export interface Page<T> {
    items: T[];
    /** Where the next page starts; null on the last page. */
    next: Keyset | null;
}

/** Selected beside a row's columns, to make a cursor of it. */
export const KEYSET_COLUMN = '(extract(epoch FROM created_at) * 1000000)::bigint::text AS keyset_at';
export const KEYSET_ORDER = 'ORDER BY created_at DESC, id DESC';

/** Rows after the cursor in parameters `at` and `id` (both null: from the start). */
export const afterKeyset = (at: string, id: string): string =>
    `(${at}::bigint IS NULL OR (created_at, id) < (timestamptz 'epoch' + ${at}::bigint * interval '1 microsecond', ${id}::text))`;

/** Parameters for `afterKeyset` and a LIMIT one row past the page, which only says whether a next page exists. */
export const keysetParams = (page: PageRequest): [string | null, string | null, number] => [page.after?.at ?? null, page.after?.id ?? null, page.limit + 1];

export const toPage = <R extends { keyset_at: string; id: string }, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> => {
    const more = rows.length > limit;
    const last = more ? rows[limit - 1] : undefined;
    return { items: rows.slice(0, limit).map(map), next: last ? { at: last.keyset_at, id: last.id } : null };
};

/** Opaque to clients: `<at in base 36>.<id>`. */
export const encodeCursor = (keyset: Keyset): string => `${BigInt(keyset.at).toString(36)}.${keyset.id}`;

const BIGINT_MAX = 2n ** 63n - 1n;

/** Null when `cursor` was not made by encodeCursor(). */
export const decodeCursor = (cursor: string): Keyset | null => {
    const match = /^(-?[0-9a-z]{1,13})\.([A-Za-z0-9_-]{1,100})$/.exec(cursor);
    if (!match) {
        return null;
    }

    const negative = match[1]!.startsWith('-');
    let at = 0n;
    for (const digit of match[1]!.replace('-', '')) {
        at = at * 36n + BigInt(Number.parseInt(digit, 36));
    }

    // Thirteen base-36 digits reach past a bigint column: such a cursor was not made here either.
    if (at > BIGINT_MAX) {
        return null;
    }

    return { at: String(negative ? -at : at), id: match[2]! };
};
