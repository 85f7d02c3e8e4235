import Crypto from 'node:crypto';

import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { newId } from '../ids.js';
import * as Store from '../store/api-tokens.js';
import { liveSession } from '../store/sessions.js';
import { SESSION_ENDED } from './sessions.js';

/** Every personal API token starts with this, so a person or a secret scanner can tell what it is. */
export const API_TOKEN_PREFIX = 'flc_';
export const MAX_API_TOKENS = 50;
/** Every token expires: a forgotten one must not work forever. */
export const DEFAULT_API_TOKEN_DAYS = 90;
export const MAX_API_TOKEN_DAYS = 365;
const SHOWN_CHARS = API_TOKEN_PREFIX.length + 6;

export interface ApiTokenView {
    id: string;
    name: string;
    /** The first characters of the token, to tell tokens apart; never enough to use one. */
    prefix: string;
    createdAt: string;
    lastUsedAt: string | null;
    expiresAt: string | null;
}

export interface CreatedApiToken extends ApiTokenView {
    /** Shown once, at creation; the server keeps only its hash. */
    token: string;
}

export interface ApiTokensService {
    /** `sessionId`: the session creating it; a password change that ends that session revokes the token. */
    create(accountId: string, input: { name: string; expiresInDays?: number; sessionId: string }): Promise<CreatedApiToken>;
    list(accountId: string): Promise<ApiTokenView[]>;
    revoke(accountId: string, id: string): Promise<void>;
    /** The account a presented token acts for, or null when it is unknown, revoked or expired. */
    authenticate(token: string): Promise<string | null>;
}

// 256 random bits: a fast hash is enough (nothing to brute-force), and lookups by hash are exact.
const hashApiToken = (token: string): string => Crypto.createHash('sha256').update(token).digest('hex');

export const toApiTokenView = (row: Store.ApiTokenRow): ApiTokenView => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null
});

export const createApiTokensService = (ctx: Context, options: { now?: () => Date } = {}): ApiTokensService => {
    const now = options.now ?? (() => new Date());
    const { db } = ctx;

    return {
        async create(accountId, input) {
            const at = now();
            const token = `${API_TOKEN_PREFIX}${Crypto.randomBytes(32).toString('base64url')}`;
            const row = await Store.insertApiToken(
                db,
                {
                    id: newId('tok'),
                    accountId,
                    sessionId: input.sessionId,
                    name: input.name,
                    tokenHash: hashApiToken(token),
                    prefix: token.slice(0, SHOWN_CHARS),
                    expiresAt: new Date(at.getTime() + Math.min(input.expiresInDays ?? DEFAULT_API_TOKEN_DAYS, MAX_API_TOKEN_DAYS) * 86_400_000)
                },
                at,
                MAX_API_TOKENS
            );
            if (!row && !(await liveSession(db, input.sessionId, accountId))) {
                // Its access token was checked, then the session ended (a password change, a log-out).
                throw Boom.unauthorized(SESSION_ENDED, 'Bearer');
            }

            if (!row) {
                throw Boom.conflict(`An account can hold at most ${MAX_API_TOKENS} API tokens: revoke one with DELETE /api/account/tokens/{id} first`);
            }

            return { ...toApiTokenView(row), token };
        },

        async list(accountId) {
            return (await Store.listApiTokens(db, accountId)).map(toApiTokenView);
        },

        async revoke(accountId, id) {
            if (!(await Store.deleteApiToken(db, accountId, id))) {
                throw Boom.notFound(`API token '${id}' not found`);
            }
        },

        async authenticate(token) {
            const row = await Store.useApiToken(db, hashApiToken(token), now());
            return row?.account_id ?? null;
        }
    };
};
