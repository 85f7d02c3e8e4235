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
    /** The session whose access token creates it: a password change that ends the session revokes the token. */
    sessionId: string;
    name: string;
    tokenHash: string;
    prefix: string;
    expiresAt: Date | null;
}

const COLUMNS = 'id, name, prefix, created_at, last_used_at, expires_at';

/**
 * Inserts the token unless the account already holds `max`, or its session has ended: null then.
 * The session row is locked (FOR SHARE) while it is checked: a password change ending it at the same
 * moment waits for this insert, then revokes the token (or this insert waits for the change, and sees
 * the session ended), so no token is left behind by a session the change ended.
 */
export const insertApiToken = (db: Queryable, token: NewApiToken, at: Date, max: number): Promise<ApiTokenRow | null> =>
    db.one<ApiTokenRow>(
        `WITH live AS (SELECT id FROM sessions WHERE id = $9 AND account_id = $2 AND ended_at IS NULL FOR SHARE)
         INSERT INTO api_tokens (id, account_id, name, token_hash, prefix, created_at, expires_at, session_id)
         SELECT $1, $2, $3, $4, $5, $6, $7, live.id FROM live
         WHERE (SELECT count(*) FROM api_tokens WHERE account_id = $2) < $8
         RETURNING ${COLUMNS}`,
        [token.id, token.accountId, token.name, token.tokenHash, token.prefix, at, token.expiresAt, max, token.sessionId]
    );

export const listApiTokens = (db: Queryable, accountId: string): Promise<ApiTokenRow[]> =>
    db.query<ApiTokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE account_id = $1 ORDER BY created_at DESC, id`, [accountId]);

/** Deletes the token; false for an unknown id or another account's. */
export const deleteApiToken = async (db: Queryable, accountId: string, id: string): Promise<boolean> =>
    (await db.query('DELETE FROM api_tokens WHERE id = $1 AND account_id = $2 RETURNING 1', [id, accountId])).length === 1;

/** Deletes the account's tokens made by any of `sessionIds` (sessions a password change ended); the deleted ones. */
export const deleteSessionsApiTokens = (db: Queryable, accountId: string, sessionIds: string[]): Promise<ApiTokenRow[]> =>
    db.query<ApiTokenRow>(`DELETE FROM api_tokens WHERE account_id = $1 AND session_id = ANY($2::text[]) RETURNING ${COLUMNS}`, [accountId, sessionIds]);

/** Deletes every token of the account (a password reset); how many. */
export const deleteAccountApiTokens = async (db: Queryable, accountId: string): Promise<number> =>
    (await db.query('DELETE FROM api_tokens WHERE account_id = $1 RETURNING 1', [accountId])).length;

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
