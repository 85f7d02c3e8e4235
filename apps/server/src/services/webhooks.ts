import Crypto from 'node:crypto';

import { decrypt, encrypt } from '../secrets.js';
import type { Queryable } from '../store/db.js';
import { ensureWebhookSecret } from '../store/webhooks.js';

// Each workflow signs its run webhooks with its own secret, generated on first use and kept
// encrypted. The owner reads it with GET /api/workflows/:workflowId/webhook-secret.

export const newWebhookSecret = (): string => `whsec_${Crypto.randomBytes(24).toString('base64url')}`;

/** The workflow's secret, created if it has none. Null for an unknown (or, with accountId, foreign) workflow. */
export const webhookSecret = async (db: Queryable, key: Buffer, workflowId: string, accountId: string | null, sealed?: string | null): Promise<string | null> => {
    const stored = sealed ?? (await ensureWebhookSecret(db, workflowId, accountId, encrypt(key, newWebhookSecret())));
    return stored === null ? null : decrypt(key, stored);
};

/** `X-Flowctl-Signature`: the HMAC-SHA256 of the exact body bytes, hex. */
export const signWebhook = (secret: string, body: string): string => `sha256=${Crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
