// What a failed statement says about the store itself, whichever store it is: PostgreSQL reached
// over the network, or the embedded database behind its loopback socket (the same `pg` client
// errors). Requests map these to 503 (http/store-failures.ts) instead of 500.

/** `unavailable`: unreachable, stopped, frozen or overloaded; `full`: out of disk space. */
export type StoreFailure = 'unavailable' | 'full';

// Socket errors of the connection to the store.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// Errors `pg` and `pg-pool` raise without a code: a connection lost, or a timeout of ours.
const CLIENT_MESSAGES = [
    'Connection terminated',
    'Query read timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
    'Cannot use a pool after calling end on the pool',
    'Client was closed and is not queryable'
];

const sqlState = (err: { code?: unknown }): string | null => (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) ? err.code : null);

/** The store failure `err` is, or null for any other error. */
export const storeFailure = (err: unknown, depth = 0): StoreFailure | null => {
    if (!err || typeof err !== 'object' || depth > 3) {
        return null;
    }

    const e = err as { code?: unknown; message?: unknown; errors?: unknown };
    const state = sqlState(e);
    // 53100 disk_full; ENOSPC from the file system (upload bytes, the embedded database's files).
    if (state === '53100' || e.code === 'ENOSPC' || (typeof e.message === 'string' && /No space left on device/i.test(e.message))) {
        return 'full';
    }

    // Class 08 connection exceptions; 57P01-57P03 the server shutting down or starting; 53300 too
    // many connections; 57014 a statement cancelled (statement_timeout).
    if (state && (state.startsWith('08') || ['57P01', '57P02', '57P03', '53300', '57014'].includes(state))) {
        return 'unavailable';
    }

    if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) {
        return 'unavailable';
    }

    if (typeof e.message === 'string' && CLIENT_MESSAGES.some((text) => (e.message as string).includes(text))) {
        return 'unavailable';
    }

    // AggregateError: a connection tried on several addresses (localhost: ::1 and 127.0.0.1). Causes
    // are not followed: a `fetch failed` to Google or a model endpoint is no failure of the store.
    if (Array.isArray(e.errors)) {
        for (const inner of e.errors) {
            const found = storeFailure(inner, depth + 1);
            if (found) {
                return found;
            }
        }
    }

    return null;
};
