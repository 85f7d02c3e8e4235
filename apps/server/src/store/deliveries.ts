import type { Queryable } from './db.js';
import { prepared, preparedOne } from './prepared.js';

// One row per e-mail a run tried to send: its intent (SENDING, written before the message goes out)
// and then its outcome (SENT or FAILED, written right after the server answered). Outcomes are facts
// about the outside world, so they are written whoever holds the lease; intents are fenced by it, so
// a worker that lost its lease cannot start a send.

export type DeliveryStatus = 'SENDING' | 'SENT' | 'FAILED';

export interface Intent {
    node_id: string;
    element_index: number;
    message_id: string;
}

export interface Outcome {
    node_id: string;
    element_index: number;
    status: 'SENT' | 'FAILED';
    error: string | null;
    /** What was rendered, kept for failed rows so a retry sends exactly that. */
    content: { to: string; subject: string; body: string } | null;
}

/** What earlier attempts of the run left per element of one node. */
export const deliveryStates = async (db: Queryable, runId: string, nodeId: string): Promise<Map<number, DeliveryStatus>> => {
    const rows = await prepared<{ element_index: number; status: DeliveryStatus }>(
        db,
        'flowctl_deliveries_states',
        'SELECT element_index, status FROM deliveries WHERE run_id = $1 AND node_id = $2',
        [runId, nodeId]
    );
    return new Map(rows.map((row) => [row.element_index, row.status]));
};

/**
 * Outcomes of finished sends and intents of the next ones, in one round trip. An intent over a row
 * left SENDING (a crash hid its outcome) marks it `resent`. False when the lease is no longer ours:
 * the outcomes were written, the intents were not.
 */
export const writeDeliveries = async (
    db: Queryable,
    run: { id: string; originRunId: string; workflowId: string; token: string },
    outcomes: Outcome[],
    intents: Intent[]
): Promise<boolean> => {
    const fence = 'EXISTS (SELECT 1 FROM workflow_leases WHERE workflow_id = $3 AND token = $4)';
    const row = await preparedOne<{ held: boolean }>(
        db,
        'flowctl_deliveries_write',
        `WITH outcome AS (
             UPDATE deliveries d SET status = o.status, error = o.error, content = o.content, sent_at = now()
             FROM jsonb_to_recordset($5::jsonb) AS o(node_id text, element_index integer, status text, error text, content jsonb)
             WHERE d.run_id = $1 AND d.node_id = o.node_id AND d.element_index = o.element_index
         ),
         intent AS (
             INSERT INTO deliveries (run_id, node_id, element_index, message_id, status, origin_run_id)
             SELECT $1, i.node_id, i.element_index, i.message_id, 'SENDING', $2
             FROM jsonb_to_recordset($6::jsonb) AS i(node_id text, element_index integer, message_id text)
             WHERE ${fence}
             ON CONFLICT (run_id, node_id, element_index) DO UPDATE
                 SET status = 'SENDING', message_id = EXCLUDED.message_id, error = NULL,
                     resent = deliveries.resent OR deliveries.status = 'SENDING'
         )
         SELECT ${fence} AS held`,
        [run.id, run.originRunId, run.workflowId, run.token, JSON.stringify(outcomes), JSON.stringify(intents)]
    );
    return row?.held ?? false;
};

export interface DeliveryCounts {
    sent: number;
    /** Elements sent again after a crash hid whether the first send was accepted. */
    possiblyDuplicated: number;
}

export const deliveryCounts = async (db: Queryable, runId: string): Promise<DeliveryCounts> => {
    const row = await preparedOne<{ sent: number; possibly_duplicated: number }>(
        db,
        'flowctl_deliveries_counts',
        `SELECT count(*) FILTER (WHERE status = 'SENT')::int AS sent, count(*) FILTER (WHERE resent)::int AS possibly_duplicated
         FROM deliveries WHERE run_id = $1`,
        [runId]
    );
    return { sent: row?.sent ?? 0, possiblyDuplicated: row?.possibly_duplicated ?? 0 };
};

export interface RetryRow {
    node_id: string;
    element_index: number;
    content: { to: string; subject: string; body: string };
    /** The first run of the chain of retries: elements are counted against it. */
    origin_run_id: string;
}

/**
 * Rows that failed in run `runId` and that no run of the same origin has sent, or may have sent,
 * since: what a retry of it sends. Rows whose outcome is unknown are left out, as they may have
 * arrived, except those of `retryRunId` itself (a retry run resumed after a crash sends them again).
 */
export const retryableDeliveries = (db: Queryable, runId: string, retryRunId: string | null, limit: number | null = null): Promise<RetryRow[]> =>
    prepared<RetryRow>(
        db,
        'flowctl_deliveries_retryable',
        `SELECT f.node_id, f.element_index, f.content, f.origin_run_id FROM deliveries f
         WHERE f.run_id = $1 AND f.status = 'FAILED' AND f.content IS NOT NULL
           AND NOT EXISTS (
               SELECT 1 FROM deliveries s
               WHERE s.origin_run_id = f.origin_run_id AND s.node_id = f.node_id AND s.element_index = f.element_index
                 AND (s.status = 'SENT' OR (s.status = 'SENDING' AND s.run_id IS DISTINCT FROM $2)))
         ORDER BY f.node_id, f.element_index
         LIMIT $3`,
        [runId, retryRunId, limit]
    );
