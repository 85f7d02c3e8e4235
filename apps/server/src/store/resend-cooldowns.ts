import type { Queryable } from './db.js';

// When a sign-up code was last asked for each address (migration 010), whether or not the address
// has an account: the cooldown then answers alike for every address.

/**
 * Stamps the address unless it was stamped after `cooldownStart`. Returns null when stamped (the
 * caller may send), else when the running cooldown began. Stale stamps of other addresses are
 * pruned in the same statement.
 */
export const takeResendSlot = async (db: Queryable, emailKey: string, at: Date, cooldownStart: Date): Promise<Date | null> => {
    const rows = await db.query<{ stamped: boolean; last_at: Date }>(
        `WITH pruned AS (DELETE FROM resend_cooldowns WHERE last_at < $3 AND email_key <> $1),
         stamped AS (
             INSERT INTO resend_cooldowns (email_key, last_at) VALUES ($1, $2)
             ON CONFLICT (email_key) DO UPDATE SET last_at = EXCLUDED.last_at WHERE resend_cooldowns.last_at <= $3
             RETURNING last_at
         )
         SELECT true AS stamped, last_at FROM stamped
         UNION ALL
         SELECT false, last_at FROM resend_cooldowns WHERE email_key = $1 AND NOT EXISTS (SELECT 1 FROM stamped)`,
        [emailKey, at, cooldownStart]
    );
    const row = rows[0];
    return !row || row.stamped ? null : row.last_at;
};

/** Starts the address's cooldown (a registration just sent a code, or would have). */
export const stampResend = async (db: Queryable, emailKey: string, at: Date): Promise<void> => {
    await db.query(
        `INSERT INTO resend_cooldowns (email_key, last_at) VALUES ($1, $2)
         ON CONFLICT (email_key) DO UPDATE SET last_at = GREATEST(resend_cooldowns.last_at, EXCLUDED.last_at)`,
        [emailKey, at]
    );
};
