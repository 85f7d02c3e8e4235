import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { badRequest } from './errors.js';
import { refusedTarget, withoutCredentials } from '../outbound.js';
import { decrypt, encrypt } from '../secrets.js';
import * as Store from '../store/accounts.js';

export interface AiSettings {
    apiKey: string | null;
    baseUrl: string | null;
    model: string | null;
    /** Model calls in flight per AI node at most, below the server's AI_CONCURRENCY; null: the server's. */
    concurrency: number | null;
}

/** What clients see: the key is write-only. */
export interface SettingsView {
    ai: {
        apiKeySet: boolean;
        apiKeyLast4: string | null;
        /** Whose key AI nodes use: the account's, the server's own (OPENAI_API_KEY), or none. */
        keyInUse: 'account' | 'server' | 'none';
        baseUrl: string | null;
        model: string | null;
        concurrency: number | null;
    };
}

/** Undefined keeps a value, null clears it. */
export interface SettingsChange {
    ai?: { apiKey?: string | null; baseUrl?: string | null; model?: string | null; concurrency?: number | null };
}

export interface SettingsService {
    getSettings(accountId: string): Promise<SettingsView>;
    updateSettings(accountId: string, change: SettingsChange): Promise<SettingsView>;
    /** Decrypted, for the run worker. Throws when the stored key cannot be decrypted. */
    getAiSettings(accountId: string): Promise<AiSettings>;
}

// Four characters of a short key would give most of it away.
const LAST4_MIN_KEY_LENGTH = 12;

/**
 * A base URL is shown back on every GET, so it must hold no secret; and the AI client could not send
 * URL credentials anyway (fetch refuses them). The key belongs in ai.apiKey, which stays write-only.
 */
const credentialsIn = (raw: string | null | undefined): string | null => {
    if (!raw) {
        return null;
    }

    const url = new URL(raw);
    return url.username || url.password ? 'it must not contain a user name or password: put the key in ai.apiKey, which is stored encrypted and never shown' : null;
};

export const createSettingsService = (ctx: Context, now: () => Date): SettingsService => {
    const key = ctx.secrets.encryptionKey;

    const open = (sealed: string): string | null => {
        try {
            return decrypt(key, sealed);
        } catch {
            return null;
        }
    };

    const view = (row: Store.AiSettingsRow): SettingsView => {
        const apiKey = row.ai_api_key_enc === null ? null : open(row.ai_api_key_enc);
        return {
            ai: {
                apiKeySet: row.ai_api_key_enc !== null,
                apiKeyLast4: apiKey !== null && apiKey.length >= LAST4_MIN_KEY_LENGTH ? apiKey.slice(-4) : null,
                keyInUse: row.ai_api_key_enc !== null ? 'account' : ctx.config.ai.apiKey ? 'server' : 'none',
                // Values stored before credentials were refused are shown without them.
                baseUrl: row.ai_base_url === null ? null : withoutCredentials(row.ai_base_url),
                model: row.ai_model,
                concurrency: row.ai_concurrency
            }
        };
    };

    const load = async (accountId: string): Promise<Store.AiSettingsRow> => {
        const row = await Store.getAiSettings(ctx.db, accountId);
        if (!row) {
            throw Boom.unauthorized('The account this token belongs to no longer exists: register or log in again');
        }

        return row;
    };

    return {
        async getSettings(accountId) {
            return view(await load(accountId));
        },

        async updateSettings(accountId, change) {
            const ai = change.ai ?? {};
            const refused = credentialsIn(ai.baseUrl) ?? refusedTarget(ai.baseUrl, ctx.config.allowPrivateNetwork);
            if (refused) {
                throw badRequest(`Invalid ai.baseUrl: ${refused}`, [{ path: 'ai.baseUrl', message: refused }]);
            }

            const row = await Store.updateAiSettings(
                ctx.db,
                accountId,
                {
                    apiKeyEnc: ai.apiKey === undefined || ai.apiKey === null ? ai.apiKey : encrypt(key, ai.apiKey),
                    baseUrl: ai.baseUrl,
                    model: ai.model,
                    concurrency: ai.concurrency
                },
                now()
            );
            if (!row) {
                throw Boom.unauthorized('The account this token belongs to no longer exists: register or log in again');
            }

            return view(row);
        },

        async getAiSettings(accountId) {
            const row = await Store.getAiSettings(ctx.db, accountId);
            if (!row) {
                return { apiKey: null, baseUrl: null, model: null, concurrency: null };
            }

            const apiKey = row.ai_api_key_enc === null ? null : open(row.ai_api_key_enc);
            if (row.ai_api_key_enc !== null && apiKey === null) {
                throw new Error(
                    'The AI API key in the account settings cannot be decrypted with this server’s ENCRYPTION_KEY: set it again with PUT /api/account/settings'
                );
            }

            return { apiKey, baseUrl: row.ai_base_url, model: row.ai_model, concurrency: row.ai_concurrency };
        }
    };
};
