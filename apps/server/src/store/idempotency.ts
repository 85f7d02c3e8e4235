import type { Queryable } from './db.js';
import { prepared, preparedOne } from './prepared.js';

// Idempotency keys: the first request with a key reserves it (insert first), answers, and stores its
// answer; a retry finds the row. The primary key makes the reservation atomic across API processes.

export interface IdempotencyRow {
    fingerprint: string;
    /** Null while the first request is still being answered. */
    status_code: number | null;
    response: unknown;
}

/**
 * Reserves the key for this request. Also takes over a key whose answer is older than `ttlMs`, or
 * whose first request has been unanswered for `staleMs` (its process died). False when it is taken.
 */
export const reserveKey = async (db: Queryable, accountId: string, key: string, fingerprint: string, ttlMs: number, staleMs: number): Promise<boolean> =>
    (
        await prepared(
            db,
            'flowctl_idempotency_reserve',
            `INSERT INTO idempotency_keys (account_id, key, fingerprint) VALUES ($1, $2, $3)
             ON CONFLICT (account_id, key) DO UPDATE
                 SET fingerprint = EXCLUDED.fingerprint, status_code = NULL, response = NULL, created_at = now()
                 WHERE idempotency_keys.created_at <= now() - $4 * interval '1 millisecond'
                    OR (idempotency_keys.status_code IS NULL AND idempotency_keys.created_at <= now() - $5 * interval '1 millisecond')
             RETURNING 1`,
            [accountId, key, fingerprint, ttlMs, staleMs]
        )
    ).length === 1;

export const findKey = (db: Queryable, accountId: string, key: string): Promise<IdempotencyRow | null> =>
    preparedOne<IdempotencyRow>(
        db,
        'flowctl_idempotency_find',
        'SELECT fingerprint, status_code, response FROM idempotency_keys WHERE account_id = $1 AND key = $2',
        [accountId, key]
    );

export const storeAnswer = async (db: Queryable, accountId: string, key: string, statusCode: number, response: unknown): Promise<void> => {
    await prepared(db, 'flowctl_idempotency_store', 'UPDATE idempotency_keys SET status_code = $3, response = $4::jsonb WHERE account_id = $1 AND key = $2', [
        accountId,
        key,
        statusCode,
        JSON.stringify(response ?? null)
    ]);
};

/** Frees a reservation whose request failed, so that a retry runs it again. */
export const releaseKey = async (db: Queryable, accountId: string, key: string): Promise<void> => {
    await prepared(db, 'flowctl_idempotency_release', 'DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND status_code IS NULL', [accountId, key]);
};

export const deleteExpiredKeys = async (db: Queryable, ttlMs: number): Promise<void> => {
    await db.query("DELETE FROM idempotency_keys WHERE created_at <= now() - $1 * interval '1 millisecond'", [ttlMs]);
};

/** The Idempotency-Key of the request that makes a row, and what makes two requests the same. */
export interface IdempotencyClaim {
    key: string;
    fingerprint: string;
    /** Set when the answer is what an earlier request with the key made (services/idempotency.ts insertKeyed). */
    replayed?: boolean;
}

/**
 * The INSERT of a keyed row (a run, a workflow: migrations 038, 039) makes nothing when a row of the account
 * already carries the key: the retry of a request whose answer was lost after its commit.
 */
export const KEYED_CONFLICT = 'ON CONFLICT (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING';

export type KeyedTable = 'runs' | 'workflows';

/** A row made by a request with an Idempotency-Key. */
export interface KeyedRow {
    id: string;
    created_at: Date;
    fingerprint: string;
    /** Within the key's lifetime: a row older than that no longer answers for the key. */
    fresh: boolean;
}

export const findKeyed = (db: Queryable, table: KeyedTable, accountId: string, key: string, ttlMs: number): Promise<KeyedRow | null> =>
    preparedOne<KeyedRow>(
        db,
        `flowctl_idempotency_find_${table}`,
        `SELECT id, created_at, idempotency_fingerprint AS fingerprint, created_at > now() - $3 * interval '1 millisecond' AS fresh
         FROM ${table} WHERE account_id = $1 AND idempotency_key = $2`,
        [accountId, key, ttlMs]
    );

export const forgetKey = async (db: Queryable, table: KeyedTable, id: string): Promise<void> => {
    await prepared(db, `flowctl_idempotency_forget_${table}`, `UPDATE ${table} SET idempotency_key = NULL, idempotency_fingerprint = NULL WHERE id = $1`, [id]);
};
