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

/** A run enqueued with an Idempotency-Key (migration 038). */
export interface KeyedRun {
    id: string;
    workflow_id: string;
    created_at: Date;
    fingerprint: string;
    /** Within the key's lifetime: a run older than that no longer answers for the key. */
    fresh: boolean;
}

export const findKeyedRun = (db: Queryable, accountId: string, key: string, ttlMs: number): Promise<KeyedRun | null> =>
    preparedOne<KeyedRun>(
        db,
        'flowctl_idempotency_findRun',
        `SELECT id, workflow_id, created_at, idempotency_fingerprint AS fingerprint, created_at > now() - $3 * interval '1 millisecond' AS fresh
         FROM runs WHERE account_id = $1 AND idempotency_key = $2`,
        [accountId, key, ttlMs]
    );

export const forgetRunKey = async (db: Queryable, runId: string): Promise<void> => {
    await prepared(db, 'flowctl_idempotency_forgetRun', 'UPDATE runs SET idempotency_key = NULL, idempotency_fingerprint = NULL WHERE id = $1', [runId]);
};
