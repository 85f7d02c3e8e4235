import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { newId } from '../ids.js';
import { decrypt, encrypt } from '../secrets.js';
import { deleteSessionsApiTokens } from '../store/api-tokens.js';
import * as Store from '../store/accounts.js';
import type { Queryable } from '../store/db.js';
import { insertSession, liveSession } from '../store/sessions.js';
import { hashRefreshToken, newRefreshToken, REFRESH_TOKEN_TTL_MS } from './refresh-tokens.js';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from './tokens.js';

export interface Tokens {
    accessToken: string;
    refreshToken: string;
    expiresIn: number;
}

/**
 * How long a used refresh token still answers with the pair it was exchanged for. A client that
 * retries a refresh (its first answer lost, or two tabs refreshing at once) must not be signed out;
 * later, a used token can only be a stolen copy, and signs the session out.
 */
export const REFRESH_REUSE_WINDOW_MS = 10_000;

const LOG_IN_AGAIN = 'log in again with POST /api/auth/login';

/** The answer to an access token whose session has ended, and to what it was doing as the session ended. */
export const SESSION_ENDED =
    'This session has ended (signed out, its password changed or reset, or its refresh token reused): log in again with POST /api/auth/login';

export interface Sessions {
    /** A new session (a new refresh-token family) for the account. */
    start(q: Queryable, accountId: string, at: Date): Promise<Tokens>;
    refresh(refreshToken: string): Promise<Tokens>;
    /** Signs out the session the token belongs to; unknown or already revoked tokens are no error. */
    logout(refreshToken: string): Promise<void>;
    /**
     * When the session was signed in, or null when it has ended: checked on every request. `fresh`
     * asks the store even where live sessions are remembered (session-cache.ts).
     */
    signedInAt(sessionId: string, accountId: string, fresh?: boolean): Promise<Date | null>;
    /** Runs a write that may end sessions: none of them is taken for live afterwards (session-cache.ts). */
    ending<T>(end: () => Promise<T>): Promise<T>;
}

export const createSessions = (ctx: Context, now: () => Date): Sessions => {
    const { db, log } = ctx;
    const { jwtSecret, encryptionKey } = ctx.secrets;
    const cache = ctx.sessions;

    const start: Sessions['start'] = async (q, accountId, at) => {
        const refreshToken = newRefreshToken();
        const sessionId = newId('rt');
        await insertSession(q, { id: sessionId, accountId, signedInAt: at });
        await Store.insertRefreshToken(
            q,
            {
                id: newId('rt'),
                accountId,
                familyId: sessionId,
                tokenHash: hashRefreshToken(refreshToken),
                expiresAt: new Date(at.getTime() + REFRESH_TOKEN_TTL_MS)
            },
            at
        );
        return { accessToken: issueAccessToken(jwtSecret, accountId, sessionId), refreshToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
    };

    /** The pair a token was exchanged for, when asked again within the window; null otherwise. */
    const resent = (row: Store.RefreshTokenRow, at: Date): Tokens | null => {
        if (!row.used_at || row.revoked_at || !row.successor_enc) {
            return null;
        }

        const elapsed = at.getTime() - row.used_at.getTime();
        if (elapsed > REFRESH_REUSE_WINDOW_MS) {
            return null;
        }

        const pair = JSON.parse(decrypt(encryptionKey, row.successor_enc)) as Omit<Tokens, 'expiresIn'>;
        return { ...pair, expiresIn: ACCESS_TOKEN_TTL_SECONDS - Math.ceil(Math.max(elapsed, 0) / 1000) };
    };

    return {
        start,

        async refresh(refreshToken) {
            const at = now();
            const presented = hashRefreshToken(refreshToken);
            let row = await Store.findRefreshToken(db, presented);
            if (row && !row.used_at && !row.revoked_at && row.expires_at.getTime() > at.getTime()) {
                const next = { accessToken: issueAccessToken(jwtSecret, row.account_id, row.family_id), refreshToken: newRefreshToken() };
                const rotated = await Store.rotateRefreshToken(
                    db,
                    presented,
                    {
                        id: newId('rt'),
                        tokenHash: hashRefreshToken(next.refreshToken),
                        expiresAt: new Date(at.getTime() + REFRESH_TOKEN_TTL_MS),
                        sealedPair: encrypt(encryptionKey, JSON.stringify(next))
                    },
                    at,
                    new Date(at.getTime() - REFRESH_REUSE_WINDOW_MS)
                );
                if (rotated) {
                    return { ...next, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
                }

                // A concurrent request used it first: answer as that request was answered.
                row = await Store.findRefreshToken(db, presented);
            }

            const again = row && resent(row, at);
            if (again) {
                return again;
            }

            if (row?.used_at && !row.revoked_at) {
                // Whoever used the copy could have made personal API tokens with the session: they
                // would outlive it, so they go with it (as when a password change ends a session).
                const reused = row;
                const [revoked, apiTokens] = await cache.ending(() =>
                    db.tx(async (tx) => [await Store.revokeRefreshFamily(tx, reused.family_id, at), await deleteSessionsApiTokens(tx, reused.account_id, [reused.family_id])])
                );
                log.warn({ accountId: row.account_id, familyId: row.family_id, revoked, apiTokensRevoked: apiTokens.length }, 'refresh token reused: its family is revoked');
                throw Boom.unauthorized(`This refresh token was already used (each one works once), so this session has been signed out for safety: ${LOG_IN_AGAIN}`);
            }

            if (row?.revoked_at) {
                throw Boom.unauthorized(`This refresh token was revoked: ${LOG_IN_AGAIN}`);
            }

            if (row && row.expires_at.getTime() <= at.getTime()) {
                throw Boom.unauthorized(`This refresh token has expired (they last 30 days): ${LOG_IN_AGAIN}`);
            }

            throw Boom.unauthorized(`This refresh token is not valid: ${LOG_IN_AGAIN}`);
        },

        async logout(refreshToken) {
            const row = await Store.findRefreshToken(db, hashRefreshToken(refreshToken));
            if (row && !row.revoked_at) {
                await cache.ending(() => Store.revokeRefreshFamily(db, row.family_id, now()));
            }
        },

        signedInAt: (sessionId, accountId, fresh = false) =>
            cache.signedInAt(sessionId, accountId, fresh, async () => (await liveSession(db, sessionId, accountId))?.signed_in_at ?? null),

        ending: (end) => cache.ending(end)
    };
};
