import { setTimeout as sleep } from 'node:timers/promises';

import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import type { Queryable } from '../store/db.js';
import * as Store from '../store/idempotency.js';
import type { IdempotencyClaim, KeyedRow, KeyedTable } from '../store/idempotency.js';

export type { IdempotencyClaim };

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An answer this late means the process answering it died; a retry may then run the request. */
const STALE_MS = 60_000;
/** How long a retry waits for the first request with its key to be answered. */
const WAIT_MS = 10_000;
const POLL_MS = 25;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

const keyReused = (key: string) =>
    Boom.badData(`Idempotency-Key '${key}' was already used for a different request (another path or body) in the last 24 hours: send a new key for a new request`);

/**
 * Runs `insert`, a statement that makes a row of `table` carrying the request's key (KEYED_CONFLICT).
 * When it makes nothing because a row of the account has the key, that row is the answer: an earlier
 * request with the key made it and its answer was lost (its database connection dropped after the
 * commit, or its process died before the answer was stored, and the key's reservation was let go or
 * taken over). A row older than the key's 24 hours lets the key go and `insert` runs again. Null when
 * no row has the key: the statement's own conditions (its workflow, say) let nothing in.
 */
export const insertKeyed = async <T>(
    db: Queryable,
    table: KeyedTable,
    accountId: string,
    claim: IdempotencyClaim | null,
    insert: () => Promise<T | null>
): Promise<{ inserted: T } | { earlier: KeyedRow } | null> => {
    for (;;) {
        const inserted = await insert();
        if (inserted || !claim) {
            return inserted ? { inserted } : null;
        }

        const row = await Store.findKeyed(db, table, accountId, claim.key, IDEMPOTENCY_TTL_MS);
        if (!row) {
            return null;
        }

        if (row.fingerprint !== claim.fingerprint) {
            throw keyReused(claim.key);
        }

        if (row.fresh) {
            claim.replayed = true;
            return { earlier: row };
        }

        await Store.forgetKey(db, table, row.id);
    }
};

export type Reservation = { replay: false } | { replay: true; statusCode: number; body: unknown };

export interface IdempotencyService {
    /**
     * Reserves `key` for a request with this fingerprint, or returns the answer stored for it. A
     * request with the same key still being answered is waited for. 422 when the key was used with
     * a different request.
     */
    begin(accountId: string, key: string, fingerprint: string): Promise<Reservation>;
    /** Stores the answer to replay; call after a successful begin() that did not replay. */
    complete(accountId: string, key: string, statusCode: number, body: unknown): Promise<void>;
    /** The request failed: a retry with the key runs it again. */
    abandon(accountId: string, key: string): Promise<void>;
}

export const createIdempotencyService = (ctx: Context): IdempotencyService => {
    const { db, log } = ctx;
    let prunedAt = 0;

    const prune = () => {
        if (Date.now() - prunedAt < PRUNE_EVERY_MS) {
            return;
        }

        prunedAt = Date.now();
        Store.deleteExpiredKeys(db, IDEMPOTENCY_TTL_MS).catch((err: Error) => log.warn({ err }, 'could not delete expired idempotency keys'));
    };

    return {
        async begin(accountId, key, fingerprint) {
            prune();
            const deadline = Date.now() + WAIT_MS;
            for (;;) {
                if (await Store.reserveKey(db, accountId, key, fingerprint, IDEMPOTENCY_TTL_MS, STALE_MS)) {
                    return { replay: false };
                }

                // Gone between the two statements: its first request failed and let it go. Try again.
                const row = await Store.findKey(db, accountId, key);
                if (row && row.fingerprint !== fingerprint) {
                    throw keyReused(key);
                }

                if (row?.status_code != null) {
                    return { replay: true, statusCode: row.status_code, body: row.response };
                }

                if (row && Date.now() >= deadline) {
                    const error = Boom.conflict(`A request with Idempotency-Key '${key}' is still being answered: retry in a moment with the same key`);
                    error.output.headers['Retry-After'] = '1';
                    throw error;
                }

                if (row) {
                    await sleep(POLL_MS);
                }
            }
        },

        complete: (accountId, key, statusCode, body) => Store.storeAnswer(db, accountId, key, statusCode, body),

        abandon: (accountId, key) => Store.releaseKey(db, accountId, key)
    };
};
