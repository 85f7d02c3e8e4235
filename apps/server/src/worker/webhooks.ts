import type { BackoffStrategy } from 'agenda';
import type { Logger } from 'pino';

import { outboundFetch, privateAddressRefusal, splitCredentials } from '../outbound.js';
import { signWebhook, webhookSecret } from '../services/webhooks.js';
import type { Queryable } from '../store/db.js';
import { getWebhookRun } from '../store/webhooks.js';

/** Waits before each retry of a failed delivery; after the last one the delivery is given up. */
export const WEBHOOK_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];
const WEBHOOK_TIMEOUT_MS = 10_000;
/**
 * An account's deliveries hold at most this many of a process's WEBHOOK_CONCURRENCY slots (see
 * webhook-slots.ts): an endpoint that never answers delays its own account's deliveries; filling
 * the 32 default slots takes 16 such accounts, and even then a freed slot goes to an account
 * holding none before theirs.
 */
export const WEBHOOK_SLOTS_PER_ACCOUNT = 2;

export const webhookBackoff: BackoffStrategy = ({ attempt }) => WEBHOOK_RETRY_DELAYS_MS[attempt - 1] ?? null;

export interface WebhookEnv {
    db: Queryable;
    encryptionKey: Buffer;
    log: Logger;
    allowPrivateNetwork: boolean;
}

/**
 * POSTs the run summary to the workflow's webhook. Throwing makes Agenda retry with webhookBackoff;
 * the drain that finished the run never waits for this.
 */
export const deliverWebhook = async (env: WebhookEnv, runId: string, attempt: number): Promise<void> => {
    const run = await getWebhookRun(env.db, runId);
    if (!run?.webhook_url) {
        // The run or its workflow was deleted, or the webhook removed, since the run ended.
        return;
    }

    const secret = await webhookSecret(env.db, env.encryptionKey, run.workflow_id, null, run.webhook_secret_enc);
    const body = JSON.stringify({
        event: 'run.completed',
        runId: run.id,
        workflowId: run.workflow_id,
        status: run.status,
        result: run.result,
        completedAt: run.completed_at?.toISOString() ?? null
    });
    let status: number;
    try {
        const target = splitCredentials(run.webhook_url);
        const res = await outboundFetch(env.allowPrivateNetwork)(target.url, {
            method: 'POST',
            headers: {
                ...(target.authorization ? { authorization: target.authorization } : {}),
                'content-type': 'application/json',
                'user-agent': 'flowctl-webhook/1',
                'x-flowctl-event': 'run.completed',
                'x-flowctl-delivery': run.id,
                'x-flowctl-signature': signWebhook(secret as string, body)
            },
            body,
            redirect: 'manual',
            signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)
        });
        status = res.status;
        await res.body?.cancel();
    } catch (err) {
        const refused = privateAddressRefusal(err);
        if (refused) {
            // Retrying cannot help: the address is refused until the server's setting changes.
            env.log.warn({ runId, workflowId: run.workflow_id, err: refused.message }, 'webhook not sent');
            return;
        }

        env.log.warn({ runId, attempt, err: (err as Error).message }, 'webhook delivery failed; retrying later');
        throw err;
    }

    if (status < 200 || status > 299) {
        env.log.warn({ runId, attempt, status }, 'webhook answered with an error; retrying later');
        throw new Error(`the webhook answered HTTP ${status}`);
    }
};
