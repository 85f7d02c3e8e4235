import type { Queryable } from './db.js';

// Every account, OTP and refresh-token statement. Times are passed in (never SQL now()) so the
// service's clock is the only clock, and tests can move it.

export interface AccountRow {
    id: string;
    email: string;
    full_name: string;
    password_hash: string;
    verified_at: Date | null;
    created_at: Date;
}

export interface AccountWithOtpRow extends AccountRow {
    otp_sent_at: Date | null;
}

export interface OtpRow {
    code_hash: string;
    expires_at: Date;
    attempts: number;
}

export interface RefreshTokenRow {
    account_id: string;
    family_id: string;
    expires_at: Date;
    used_at: Date | null;
    revoked_at: Date | null;
}

export interface AiSettingsRow {
    ai_api_key_enc: string | null;
    ai_base_url: string | null;
    ai_model: string | null;
}

export interface NewRefreshToken {
    id: string;
    accountId: string;
    familyId: string;
    tokenHash: string;
    expiresAt: Date;
}

export interface NewOtp {
    accountId: string;
    codeHash: string;
    expiresAt: Date;
    sentAt: Date;
}

export const findAccountByEmailKey = (db: Queryable, emailKey: string): Promise<AccountWithOtpRow | null> =>
    db.one<AccountWithOtpRow>(
        `SELECT a.id, a.email, a.full_name, a.password_hash, a.verified_at, a.created_at, o.sent_at AS otp_sent_at
         FROM accounts a LEFT JOIN otps o ON o.account_id = a.id
         WHERE a.email_key = $1`,
        [emailKey]
    );

export const findAccountById = (db: Queryable, id: string): Promise<AccountRow | null> =>
    db.one<AccountRow>('SELECT id, email, full_name, password_hash, verified_at, created_at FROM accounts WHERE id = $1', [id]);

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

/** Re-registration of an address nobody verified yet: the newest password and name win. */
export const updateUnverifiedAccount = async (
    db: Queryable,
    account: { id: string; email: string; fullName: string; passwordHash: string; now: Date }
): Promise<boolean> => {
    const rows = await db.query(
        `UPDATE accounts SET email = $2, full_name = $3, password_hash = $4, updated_at = $5
         WHERE id = $1 AND verified_at IS NULL
         RETURNING id`,
        [account.id, account.email, account.fullName, account.passwordHash, account.now]
    );
    return rows.length === 1;
};

export const updatePasswordHash = async (db: Queryable, id: string, passwordHash: string, now: Date): Promise<void> => {
    await db.query('UPDATE accounts SET password_hash = $2, updated_at = $3 WHERE id = $1', [id, passwordHash, now]);
};

export const markVerified = async (db: Queryable, id: string, now: Date): Promise<void> => {
    await db.query('UPDATE accounts SET verified_at = $2, updated_at = $2 WHERE id = $1 AND verified_at IS NULL', [id, now]);
};

/**
 * Writes a fresh code (attempts back to 0) unless the previous one was sent after `cooldownStart`.
 * False when the cooldown kept the old code: a single statement, so two concurrent requests cannot both send.
 */
export const putOtp = async (db: Queryable, otp: NewOtp, cooldownStart: Date): Promise<boolean> => {
    const rows = await db.query(
        `INSERT INTO otps (account_id, code_hash, expires_at, attempts, sent_at)
         VALUES ($1, $2, $3, 0, $4)
         ON CONFLICT (account_id) DO UPDATE
             SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, attempts = 0, sent_at = EXCLUDED.sent_at
             WHERE otps.sent_at <= $5
         RETURNING account_id`,
        [otp.accountId, otp.codeHash, otp.expiresAt, otp.sentAt, cooldownStart]
    );
    return rows.length === 1;
};

/**
 * Counts the attempt before the code is compared, in one statement: concurrent guesses each use up
 * a try, so no burst of parallel requests gets more than the allowed number of comparisons.
 */
export const spendOtpAttempt = (db: Queryable, accountId: string): Promise<OtpRow | null> =>
    db.one<OtpRow>('UPDATE otps SET attempts = attempts + 1 WHERE account_id = $1 RETURNING code_hash, expires_at, attempts', [accountId]);

export const deleteOtp = async (db: Queryable, accountId: string): Promise<void> => {
    await db.query('DELETE FROM otps WHERE account_id = $1', [accountId]);
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
 * Marks a live token used and inserts its successor in the same family, atomically. Null when the
 * presented token is unknown, used, revoked or expired: the caller then asks findRefreshToken why.
 */
export const rotateRefreshToken = async (
    db: Queryable,
    presentedHash: string,
    next: { id: string; tokenHash: string; expiresAt: Date },
    now: Date
): Promise<{ account_id: string } | null> =>
    db.one<{ account_id: string }>(
        `WITH used AS (
             UPDATE refresh_tokens SET used_at = $5
             WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $5
             RETURNING account_id, family_id
         )
         INSERT INTO refresh_tokens (id, account_id, family_id, token_hash, expires_at, created_at)
         SELECT $2, account_id, family_id, $3, $4, $5 FROM used
         RETURNING account_id`,
        [presentedHash, next.id, next.tokenHash, next.expiresAt, now]
    );

export const findRefreshToken = (db: Queryable, tokenHash: string): Promise<RefreshTokenRow | null> =>
    db.one<RefreshTokenRow>('SELECT account_id, family_id, expires_at, used_at, revoked_at FROM refresh_tokens WHERE token_hash = $1', [tokenHash]);

export const revokeRefreshFamily = async (db: Queryable, familyId: string, now: Date): Promise<number> => {
    const rows = await db.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL RETURNING id', [familyId, now]);
    return rows.length;
};

export const getAiSettings = (db: Queryable, accountId: string): Promise<AiSettingsRow | null> =>
    db.one<AiSettingsRow>('SELECT ai_api_key_enc, ai_base_url, ai_model FROM accounts WHERE id = $1', [accountId]);

/** Fields left undefined keep their value; null clears. Returns the row as stored afterwards. */
export const updateAiSettings = (
    db: Queryable,
    accountId: string,
    change: { apiKeyEnc?: string | null; baseUrl?: string | null; model?: string | null },
    now: Date
): Promise<AiSettingsRow | null> =>
    db.one<AiSettingsRow>(
        `UPDATE accounts SET
             ai_api_key_enc = CASE WHEN $2 THEN $3 ELSE ai_api_key_enc END,
             ai_base_url = CASE WHEN $4 THEN $5 ELSE ai_base_url END,
             ai_model = CASE WHEN $6 THEN $7 ELSE ai_model END,
             updated_at = $8
         WHERE id = $1
         RETURNING ai_api_key_enc, ai_base_url, ai_model`,
        [
            accountId,
            change.apiKeyEnc !== undefined,
            change.apiKeyEnc ?? null,
            change.baseUrl !== undefined,
            change.baseUrl ?? null,
            change.model !== undefined,
            change.model ?? null,
            now
        ]
    );
