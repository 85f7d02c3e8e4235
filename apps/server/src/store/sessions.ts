import type { Queryable } from './db.js';
import { preparedOne } from './prepared.js';

// Sessions (migration 010): one per refresh-token family, with the same id. Ending one is part of
// revoking its family (store/accounts.ts), so the two never disagree.

/**
 * A new session. In the same statement the account's ended sessions, and those whose refresh tokens
 * have all expired, are pruned: neither can sign anything in again. A session of the last day is
 * never pruned for lacking tokens: a concurrent sign-in may not have stored its first one yet.
 */
export const insertSession = async (db: Queryable, session: { id: string; accountId: string; signedInAt: Date }): Promise<void> => {
    await db.query(
        `WITH pruned AS (
             DELETE FROM sessions s
             WHERE s.account_id = $2
               AND (s.ended_at IS NOT NULL
                    OR (s.signed_in_at < $3::timestamptz - interval '1 day'
                        AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = s.id AND r.expires_at >= $3)))
         )
         INSERT INTO sessions (id, account_id, signed_in_at) VALUES ($1, $2, $3)`,
        [session.id, session.accountId, session.signedInAt]
    );
};

/**
 * When the session was signed in, or null once it has ended (or never was the account's). Runs on
 * every request made with an access token: one prepared primary-key lookup.
 */
export const liveSession = (db: Queryable, id: string, accountId: string): Promise<{ signed_in_at: Date } | null> =>
    preparedOne<{ signed_in_at: Date }>(
        db,
        'flowctl_sessions_live',
        'SELECT signed_in_at FROM sessions WHERE id = $1 AND account_id = $2 AND ended_at IS NULL',
        [id, accountId]
    );
