import type { Queryable } from './db.js';

// Every account, OTP and refresh-token statement. Times are passed in (never SQL now()) so the
// service's clock is the only clock, and tests can move it.

export interface AccountRow {
    id: string;
    email: string;
    full_name: string;
    password_hash: string;
    verified_at: Date | null;
    /** A contested sign-up was verified: no password is usable until the owner sets one. */
    password_unset: boolean;
    created_at: Date;
}

export interface EmailCodeRow {
    id: string;
    /** A sign-up's password hash and name (purpose 'verify'); null for a reset code. */
    password_hash: string | null;
    full_name: string | null;
    code_hash: string;
    sent_at: Date;
    created_at: Date;
}

export interface RefreshTokenRow {
    account_id: string;
    family_id: string;
    expires_at: Date;
    used_at: Date | null;
    revoked_at: Date | null;
    /** The pair this token was exchanged for, sealed with ENCRYPTION_KEY, for a retried refresh. */
    successor_enc: string | null;
}

export interface AiSettingsRow {
    ai_api_key_enc: string | null;
    ai_base_url: string | null;
    ai_model: string | null;
    ai_concurrency: number | null;
}

export interface NewRefreshToken {
    id: string;
    accountId: string;
    familyId: string;
    tokenHash: string;
    expiresAt: Date;
}

export interface NewCode {
    id: string;
    accountId: string;
    codeHash: string;
    sentAt: Date;
    expiresAt: Date;
}

export const findAccountByEmailKey = (db: Queryable, emailKey: string): Promise<AccountRow | null> =>
    db.one<AccountRow>('SELECT id, email, full_name, password_hash, verified_at, password_unset, created_at FROM accounts WHERE email_key = $1', [emailKey]);

export const findAccountById = (db: Queryable, id: string): Promise<AccountRow | null> =>
    db.one<AccountRow>('SELECT id, email, full_name, password_hash, verified_at, password_unset, created_at FROM accounts WHERE id = $1', [id]);

/** Null when the address is taken (a concurrent registration won). */
export const insertAccount = async (
    db: Queryable,
    account: { id: string; email: string; emailKey: string; fullName: string; passwordHash: string; now: Date }
): Promise<string | null> => {
    const row = await db.one<{ id: string }>(
        `INSERT INTO accounts (id, email, email_key, full_name, password_hash, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (email_key) DO NOTHING
         RETURNING id`,
        [account.id, account.email, account.emailKey, account.fullName, account.passwordHash, account.now]
    );
    return row?.id ?? null;
};

/** Sets the password; an account waiting for one (password_unset) has one from now on. */
export const updatePasswordHash = async (db: Queryable, id: string, passwordHash: string, now: Date): Promise<void> => {
    await db.query('UPDATE accounts SET password_hash = $2, password_unset = false, updated_at = $3 WHERE id = $1', [id, passwordHash, now]);
};

/** Stands for "no password": it is no scrypt hash, so no password ever matches it. */
export const NO_PASSWORD_HASH = '!';

/**
 * Activates an unverified account with the name and password of the sign-up whose code was entered,
 * or no password (`passwordHash: null`, password_unset) when the sign-up was contested.
 * False when it was already verified (a concurrent verification won).
 */
export const activateAccount = async (db: Queryable, id: string, signUp: { passwordHash: string | null; fullName: string }, now: Date): Promise<boolean> => {
    const rows = await db.query(
        `UPDATE accounts SET verified_at = $2, password_hash = $3, password_unset = $5, full_name = $4, updated_at = $2
         WHERE id = $1 AND verified_at IS NULL
         RETURNING id`,
        [id, now, signUp.passwordHash ?? NO_PASSWORD_HASH, signUp.fullName, signUp.passwordHash === null]
    );
    return rows.length === 1;
};

/**
 * A new sign-up of an unverified address, with its own password, name and code. In the same
 * statement, the account's sign-ups made before `liveSince`, and all but the newest `keep - 1` others,
 * are dropped: few codes are live per address, so a guess cannot be tried against many.
 */
export const insertSignUp = async (
    db: Queryable,
    code: NewCode & { passwordHash: string; fullName: string },
    bounds: { keep: number; liveSince: Date }
): Promise<void> => {
    await db.query(
        `WITH pruned AS (
             DELETE FROM email_codes
             WHERE account_id = $2 AND purpose = 'verify'
               AND (created_at < $8 OR id NOT IN (
                   SELECT id FROM email_codes
                   WHERE account_id = $2 AND purpose = 'verify' AND created_at >= $8
                   ORDER BY created_at DESC, id DESC
                   LIMIT $7
               ))
         )
         INSERT INTO email_codes (id, account_id, purpose, password_hash, full_name, code_hash, sent_at, expires_at, created_at)
         VALUES ($1, $2, 'verify', $3, $4, $5, $6, $9, $6)`,
        [code.id, code.accountId, code.passwordHash, code.fullName, code.codeHash, code.sentAt, bounds.keep - 1, bounds.liveSince, code.expiresAt]
    );
};

/** The account's sign-ups made since `liveSince`, newest first. */
export const liveSignUps = (db: Queryable, accountId: string, liveSince: Date): Promise<{ id: string; sent_at: Date; created_at: Date }[]> =>
    db.query(
        `SELECT id, sent_at, created_at FROM email_codes
         WHERE account_id = $1 AND purpose = 'verify' AND created_at >= $2
         ORDER BY created_at DESC, id DESC`,
        [accountId, liveSince]
    );

/**
 * A fresh code (attempts back to 0) for an existing row, unless its code was sent after
 * `cooldownStart`: a single statement, so two concurrent requests cannot both send.
 */
export const renewCode = async (db: Queryable, code: { id: string; codeHash: string; sentAt: Date; expiresAt: Date }, cooldownStart: Date): Promise<boolean> => {
    const rows = await db.query(
        `UPDATE email_codes SET code_hash = $2, attempts = 0, sent_at = $3, expires_at = $4
         WHERE id = $1 AND sent_at <= $5
         RETURNING id`,
        [code.id, code.codeHash, code.sentAt, code.expiresAt, cooldownStart]
    );
    return rows.length === 1;
};

/** The account's one reset code, replaced unless the current one was sent after `cooldownStart`. */
export const putResetCode = async (db: Queryable, code: NewCode, cooldownStart: Date): Promise<string | null> => {
    const row = await db.one<{ id: string }>(
        `INSERT INTO email_codes (id, account_id, purpose, code_hash, sent_at, expires_at, created_at)
         VALUES ($1, $2, 'reset', $3, $4, $5, $4)
         ON CONFLICT (account_id) WHERE purpose = 'reset' DO UPDATE
             SET id = EXCLUDED.id, code_hash = EXCLUDED.code_hash, attempts = 0, sent_at = EXCLUDED.sent_at,
                 expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at
             WHERE email_codes.sent_at <= $6
         RETURNING id`,
        [code.id, code.accountId, code.codeHash, code.sentAt, code.expiresAt, cooldownStart]
    );
    return row?.id ?? null;
};

/**
 * Counts a try on every live code of the account for this purpose before any is compared, in one
 * statement: concurrent guesses each use up a try, so no burst gets more comparisons than allowed.
 * Returns the codes that may still be compared (unexpired, within their tries).
 */
export const spendCodeAttempt = (db: Queryable, accountId: string, purpose: 'verify' | 'reset', maxAttempts: number, now: Date): Promise<EmailCodeRow[]> =>
    db.query<EmailCodeRow>(
        `UPDATE email_codes SET attempts = attempts + 1
         WHERE account_id = $1 AND purpose = $2 AND expires_at > $4 AND attempts < $3
         RETURNING id, password_hash, full_name, code_hash, sent_at, created_at`,
        [accountId, purpose, maxAttempts, now]
    );

/** Deletes the code; false when another request took it first (each code works once). */
export const takeCode = async (db: Queryable, id: string): Promise<boolean> => (await db.query('DELETE FROM email_codes WHERE id = $1 RETURNING id', [id])).length === 1;

export const deleteCodes = async (db: Queryable, accountId: string, purpose: 'verify' | 'reset'): Promise<void> => {
    await db.query('DELETE FROM email_codes WHERE account_id = $1 AND purpose = $2', [accountId, purpose]);
};

/** Starts or continues a token family; expired tokens of the account are pruned in the same statement. */
export const insertRefreshToken = async (db: Queryable, token: NewRefreshToken, now: Date): Promise<void> => {
    await db.query(
        `WITH pruned AS (DELETE FROM refresh_tokens WHERE account_id = $2 AND expires_at < $6)
         INSERT INTO refresh_tokens (id, account_id, family_id, token_hash, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [token.id, token.accountId, token.familyId, token.tokenHash, token.expiresAt, now]
    );
};

/**
 * Marks a live token used and inserts its successor in the same family, atomically, keeping the
 * successor pair sealed on the used token for a retried request. Sealed pairs of the family older than
 * `sealedSince` are cleared in the same statement: they are needed only for a few seconds.
 * False when the presented token is no longer live: the caller then asks findRefreshToken why.
 */
export const rotateRefreshToken = async (
    db: Queryable,
    presentedHash: string,
    next: { id: string; tokenHash: string; expiresAt: Date; sealedPair: string },
    now: Date,
    sealedSince: Date
): Promise<boolean> => {
    const rows = await db.query(
        `WITH used AS (
             UPDATE refresh_tokens SET used_at = $5, successor_enc = $6
             WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $5
             RETURNING account_id, family_id
         ), cleared AS (
             UPDATE refresh_tokens SET successor_enc = NULL
             WHERE family_id IN (SELECT family_id FROM used) AND successor_enc IS NOT NULL AND used_at < $7
         )
         INSERT INTO refresh_tokens (id, account_id, family_id, token_hash, expires_at, created_at)
         SELECT $2, account_id, family_id, $3, $4, $5 FROM used
         RETURNING id`,
        [presentedHash, next.id, next.tokenHash, next.expiresAt, now, next.sealedPair, sealedSince]
    );
    return rows.length === 1;
};

export const findRefreshToken = (db: Queryable, tokenHash: string): Promise<RefreshTokenRow | null> =>
    db.one<RefreshTokenRow>(
        'SELECT account_id, family_id, expires_at, used_at, revoked_at, successor_enc FROM refresh_tokens WHERE token_hash = $1',
        [tokenHash]
    );

/**
 * Signs a session out: ends it (its access tokens answer 401 from now on) and revokes every token of
 * the family, and the sealed pairs with them, in one statement.
 */
export const revokeRefreshFamily = async (db: Queryable, familyId: string, now: Date): Promise<number> => {
    const rows = await db.query(
        `WITH ended AS (UPDATE sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL)
         UPDATE refresh_tokens SET revoked_at = $2, successor_enc = NULL WHERE family_id = $1 AND revoked_at IS NULL RETURNING id`,
        [familyId, now]
    );
    return rows.length;
};

/**
 * Signs every session of the account out, access tokens included; all but `keep`'s when given.
 * Returns how many refresh tokens were revoked and which sessions this ended (their API tokens go next).
 */
export const revokeAccountRefreshTokens = async (
    db: Queryable,
    accountId: string,
    now: Date,
    keep: string | null = null
): Promise<{ refreshTokens: number; sessions: string[] }> => {
    const row = await db.one<{ refresh_tokens: number; sessions: string[] }>(
        `WITH ended AS (
             UPDATE sessions SET ended_at = $2 WHERE account_id = $1 AND ended_at IS NULL AND id IS DISTINCT FROM $3 RETURNING id
         ), revoked AS (
             UPDATE refresh_tokens SET revoked_at = $2, successor_enc = NULL
             WHERE account_id = $1 AND revoked_at IS NULL AND family_id IS DISTINCT FROM $3 RETURNING id
         )
         SELECT (SELECT count(*)::int FROM revoked) AS refresh_tokens, ARRAY(SELECT id FROM ended) AS sessions`,
        [accountId, now, keep]
    );
    return { refreshTokens: row?.refresh_tokens ?? 0, sessions: row?.sessions ?? [] };
};

export const getAiSettings = (db: Queryable, accountId: string): Promise<AiSettingsRow | null> =>
    db.one<AiSettingsRow>('SELECT ai_api_key_enc, ai_base_url, ai_model, ai_concurrency FROM accounts WHERE id = $1', [accountId]);

/** Fields left undefined keep their value; null clears. Returns the row as stored afterwards. */
export const updateAiSettings = (
    db: Queryable,
    accountId: string,
    change: { apiKeyEnc?: string | null; baseUrl?: string | null; model?: string | null; concurrency?: number | null },
    now: Date
): Promise<AiSettingsRow | null> =>
    db.one<AiSettingsRow>(
        `UPDATE accounts SET
             ai_api_key_enc = CASE WHEN $2 THEN $3 ELSE ai_api_key_enc END,
             ai_base_url = CASE WHEN $4 THEN $5 ELSE ai_base_url END,
             ai_model = CASE WHEN $6 THEN $7 ELSE ai_model END,
             ai_concurrency = CASE WHEN $9 THEN $10::int ELSE ai_concurrency END,
             updated_at = $8
         WHERE id = $1
         RETURNING ai_api_key_enc, ai_base_url, ai_model, ai_concurrency`,
        [
            accountId,
            change.apiKeyEnc !== undefined,
            change.apiKeyEnc ?? null,
            change.baseUrl !== undefined,
            change.baseUrl ?? null,
            change.model !== undefined,
            change.model ?? null,
            now,
            change.concurrency !== undefined,
            change.concurrency ?? null
        ]
    );
