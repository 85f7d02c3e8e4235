import type { Queryable } from './db.js';
import { preparedOne } from './prepared.js';

// Personal API tokens. Times are passed in, as for the other account statements.

export interface ApiTokenRow {
    id: string;
    name: string;
    prefix: string;
    created_at: Date;
    last_used_at: Date | null;
    expires_at: Date | null;
}

export interface NewApiToken {
    id: string;
    accountId: string;
    name: string;
    tokenHash: string;
    prefix: string;
    expiresAt: Date | null;
}

const COLUMNS = 'id, name, prefix, created_at, last_used_at, expires_at';

/** Inserts the token unless the account already holds `max`; null then. */
export const insertApiToken = (db: Queryable, token: NewApiToken, at: Date, max: number): Promise<ApiTokenRow | null> =>
    db.one<ApiTokenRow>(
        `INSERT INTO api_tokens (id, account_id, name, token_hash, prefix, created_at, expires_at)
         SELECT $1, $2, $3, $4, $5, $6, $7
         WHERE (SELECT count(*) FROM api_tokens WHERE account_id = $2) < $8
         RETURNING ${COLUMNS}`,
        [token.id, token.accountId, token.name, token.tokenHash, token.prefix, at, token.expiresAt, max]
    );

export const listApiTokens = (db: Queryable, accountId: string): Promise<ApiTokenRow[]> =>
    db.query<ApiTokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE account_id = $1 ORDER BY created_at DESC, id`, [accountId]);

/** Deletes the token; false for an unknown id or another account's. */
export const deleteApiToken = async (db: Queryable, accountId: string, id: string): Promise<boolean> =>
    (await db.query('DELETE FROM api_tokens WHERE id = $1 AND account_id = $2 RETURNING 1', [id, accountId])).length === 1;

/**
 * The account a live token belongs to, or null. Runs on every request made with a token, so it is
 * one prepared statement, and it records the use only when the last one is a minute old or more.
 */
export const useApiToken = (db: Queryable, tokenHash: string, at: Date): Promise<{ id: string; account_id: string } | null> =>
    preparedOne<{ id: string; account_id: string }>(
        db,
        'flowctl_apiTokens_use',
        `WITH live AS (
             SELECT id, account_id, last_used_at FROM api_tokens
             WHERE token_hash = $1 AND (expires_at IS NULL OR expires_at > $2)
         ), used AS (
             UPDATE api_tokens t SET last_used_at = $2 FROM live
             WHERE t.id = live.id AND (live.last_used_at IS NULL OR live.last_used_at <= $2 - interval '1 minute')
         )
         SELECT id, account_id FROM live`,
        [tokenHash, at]
    );
