import type { Queryable } from './db.js';
import { prepared, preparedOne } from './prepared.js';

// A workflow's run webhook: what a delivery of it sends, and the workflow's signing secret, sealed.
// The statements keep their names (flowctl_runs_*) from when they lived in runs.ts.

export interface WebhookRunRow {
    id: string;
    workflow_id: string;
    status: string;
    result: unknown;
    completed_at: Date | null;
    webhook_url: string | null;
    webhook_secret_enc: string | null;
}

export const getWebhookRun = (db: Queryable, runId: string): Promise<WebhookRunRow | null> =>
    preparedOne<WebhookRunRow>(
        db,
        'flowctl_runs_getWebhookRun',
        `SELECT r.id, r.workflow_id, r.status, r.result, r.completed_at, w.webhook_url, w.webhook_secret_enc
         FROM runs r JOIN workflows w ON w.id = r.workflow_id WHERE r.id = $1`,
        [runId]
    );

/** The workflow's webhook signing secret, sealed; `sealed` is stored first if there is none yet. */
export const ensureWebhookSecret = async (db: Queryable, workflowId: string, accountId: string | null, sealed: string): Promise<string | null> => {
    const params = [workflowId, accountId];
    const owned = 'id = $1 AND ($2::text IS NULL OR account_id = $2)';
    await prepared(db, 'flowctl_runs_ensureWebhookSecret', `UPDATE workflows SET webhook_secret_enc = $3 WHERE ${owned} AND webhook_secret_enc IS NULL`, [...params, sealed]);
    const row = await preparedOne<{ webhook_secret_enc: string }>(db, 'flowctl_runs_ensureWebhookSecret_2', `SELECT webhook_secret_enc FROM workflows WHERE ${owned}`, params);
    return row?.webhook_secret_enc ?? null;
};

/** Replaces the workflow's webhook secret. False for an unknown or foreign workflow. */
export const replaceWebhookSecret = async (db: Queryable, workflowId: string, accountId: string, sealed: string): Promise<boolean> => {
    const rows = await prepared(db, 'flowctl_runs_replaceWebhookSecret', 'UPDATE workflows SET webhook_secret_enc = $3 WHERE id = $1 AND account_id = $2 RETURNING 1', [
        workflowId,
        accountId,
        sealed
    ]);
    return rows.length === 1;
};
