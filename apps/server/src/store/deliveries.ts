import type { Queryable } from './db.js';
import { prepared, preparedOne } from './prepared.js';

// One row per e-mail a run tried to send: its intent (SENDING, written before the message goes out)
// and then its outcome (SENT or FAILED, written right after the server answered), or, for an element
// left out because its address is on the suppression list, SUPPRESSED (no intent: nothing was sent). Outcomes are facts
// about the outside world, so they are written whoever holds the lease; intents are fenced by it, so
// a worker that lost its lease cannot start a send.

export type DeliveryStatus = 'SENDING' | 'SENT' | 'FAILED' | 'SUPPRESSED';

export interface Intent {
    node_id: string;
    element_index: number;
    message_id: string;
    /** An earlier attempt left this element SENDING and may have sent it: this is a second copy. */
    resent: boolean;
    /** The address it goes to: the ledger answers who got what from the records alone. */
    recipient: string;
}

export interface Outcome {
    node_id: string;
    element_index: number;
    status: 'SENT' | 'FAILED' | 'SUPPRESSED';
    error: string | null;
    /** What was rendered, kept for failed rows so a retry sends exactly that. */
    content: { to: string; subject: string; body: string } | null;
    /**
     * For an element that failed before the transport, or was suppressed (no intent was written):
     * its address, if it has one. Otherwise null: the intent holds it.
     */
    recipient?: string | null;
}

export interface DeliveryState {
    status: DeliveryStatus;
    /** The attempt at the run that wrote the intent. */
    attempt: string | null;
    /** A copy went out again after one whose answer was never read: the element may have arrived. */
    resent: boolean;
    /** Why it failed (FAILED), as the run's OUTPUT node said. */
    error: string | null;
}

/** What earlier attempts of the run left per element of one node. */
export const deliveryStates = async (db: Queryable, runId: string, nodeId: string): Promise<Map<number, DeliveryState>> => {
    const rows = await prepared<{ element_index: number; status: DeliveryStatus; attempt: string | null; resent: boolean; error: string | null }>(
        db,
        'flowctl_deliveries_states_v2',
        'SELECT element_index, status, attempt, resent, error FROM deliveries WHERE run_id = $1 AND node_id = $2',
        [runId, nodeId]
    );
    return new Map(rows.map((row) => [row.element_index, { status: row.status, attempt: row.attempt, resent: row.resent, error: row.error }]));
};

/**
 * Outcomes of finished sends and intents of the next ones, in one round trip. False when the lease
 * is no longer ours: the outcomes were written, the intents were not.
 */
export const writeDeliveries = async (
    db: Queryable,
    run: { id: string; originRunId: string; workflowId: string; token: string; attempt: string },
    outcomes: Outcome[],
    intents: Intent[]
): Promise<boolean> => {
    const fence = 'EXISTS (SELECT 1 FROM workflow_leases WHERE workflow_id = $3 AND token = $4)';
    // Outcomes are written as upserts of rows whose intents exist: ON CONFLICT finds each row through
    // the primary key, one probe per row, whatever the plan. As an UPDATE joined to the outcomes, the
    // statement's plan decided how the run's deliveries were read, and the plan is cached (the
    // statement is prepared): made while the run had few deliveries, it was a sequential scan and hash
    // join, which then read every delivery of the run on each write. EXPLAIN ANALYZE of that plan at
    // 300,000 deliveries: 148 ms per write, so a big run on PostgreSQL fell from 2,100 to 300 e-mails/s.
    // (test/deliveries-plan.test.ts)
    const row = await preparedOne<{ held: boolean }>(
        db,
        'flowctl_deliveries_write',
        `WITH outcome AS (
             INSERT INTO deliveries (run_id, node_id, element_index, status, error, content, origin_run_id, sent_at, recipient, attempts)
             SELECT $1, o.node_id, o.element_index, o.status, o.error, o.content::jsonb, $2, now(), o.recipient, 0
             FROM unnest($5::text[], $6::int[], $7::text[], $8::text[], $9::text[], $15::text[]) AS o(node_id, element_index, status, error, content, recipient)
             ON CONFLICT (run_id, node_id, element_index) DO UPDATE
                 SET status = EXCLUDED.status, error = EXCLUDED.error, content = EXCLUDED.content, sent_at = EXCLUDED.sent_at,
                     recipient = COALESCE(EXCLUDED.recipient, deliveries.recipient)
         ),
         intent AS (
             INSERT INTO deliveries (run_id, node_id, element_index, message_id, status, origin_run_id, resent, attempt, recipient)
             SELECT $1, i.node_id, i.element_index, i.message_id, 'SENDING', $2, i.resent, $14, i.recipient
             FROM unnest($10::text[], $11::int[], $12::text[], $13::boolean[], $16::text[]) AS i(node_id, element_index, message_id, resent, recipient)
             WHERE ${fence}
             ON CONFLICT (run_id, node_id, element_index) DO UPDATE
                 SET status = 'SENDING', message_id = EXCLUDED.message_id, error = NULL, attempt = EXCLUDED.attempt,
                     resent = deliveries.resent OR EXCLUDED.resent, recipient = EXCLUDED.recipient,
                     attempts = deliveries.attempts + 1, sent_at = now()
         )
         SELECT ${fence} AS held`,
        [
            run.id,
            run.originRunId,
            run.workflowId,
            run.token,
            outcomes.map((o) => o.node_id),
            outcomes.map((o) => o.element_index),
            outcomes.map((o) => o.status),
            outcomes.map((o) => o.error),
            outcomes.map((o) => (o.content ? JSON.stringify(o.content) : null)),
            intents.map((i) => i.node_id),
            intents.map((i) => i.element_index),
            intents.map((i) => i.message_id),
            intents.map((i) => i.resent),
            run.attempt,
            outcomes.map((o) => o.recipient ?? null),
            intents.map((i) => i.recipient)
        ]
    );
    return row?.held ?? false;
};

export interface DeliveryCounts {
    sent: number;
    /** Elements sent again after a crash hid whether the first send was accepted. */
    possiblyDuplicated: number;
    /**
     * Elements whose outcome is unknown: left under way (SENDING) by an attempt that died, or sent
     * again after such a copy and then refused, as the first copy may have arrived.
     */
    unknown: number;
    /** Elements left out because their address was on the suppression list: neither sent nor failed. */
    suppressed: number;
}

export const deliveryCounts = async (db: Queryable, runId: string): Promise<DeliveryCounts> => {
    const row = await preparedOne<{ sent: number; possibly_duplicated: number; unknown: number; suppressed: number }>(
        db,
        'flowctl_deliveries_counts',
        `SELECT count(*) FILTER (WHERE status = 'SENT')::int AS sent, count(*) FILTER (WHERE resent)::int AS possibly_duplicated,
                count(*) FILTER (WHERE status = 'SENDING' OR (resent AND status = 'FAILED'))::int AS unknown,
                count(*) FILTER (WHERE status = 'SUPPRESSED')::int AS suppressed
         FROM deliveries WHERE run_id = $1`,
        [runId]
    );
    return { sent: row?.sent ?? 0, possiblyDuplicated: row?.possibly_duplicated ?? 0, unknown: row?.unknown ?? 0, suppressed: row?.suppressed ?? 0 };
};

export interface RetryRow {
    node_id: string;
    element_index: number;
    content: { to: string; subject: string; body: string };
    /** The first run of the chain of retries: elements are counted against it. */
    origin_run_id: string;
}

// An element's outcome is unknown once a copy of it went out and no answer was read: it was left
// SENDING (its worker died), or it was sent again (`resent`: a second copy after a crash, or after a
// copy that went unanswered), whatever that later copy's answer. A refusal of the second copy says
// nothing of the first, which may have arrived. Only the run that sent the first copy may send it
// again, under the same Message-ID (a receiver that deduplicates drops it); a retry is another run,
// with its own Message-IDs, so it never sends such an element. `$2`, a retry run resumed after a
// crash, is that run for its own copies.
const UNKNOWN = `s.run_id IS DISTINCT FROM $2 AND (s.status = 'SENDING' OR s.resent)`;

/**
 * Rows that failed in run `runId` and that no run of the same origin has sent, or may have sent:
 * what a retry of it sends. Rows whose outcome is unknown are left out, as they may have arrived,
 * except those of `retryRunId` itself (a retry run resumed after a crash sends them again).
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
                 AND (s.status = 'SENT' OR (${UNKNOWN})))
         ORDER BY f.node_id, f.element_index
         LIMIT $3`,
        [runId, retryRunId, limit]
    );

/**
 * Per node, the rows of run `runId` that a retry of it leaves out because their outcome is unknown
 * (see UNKNOWN) and no run of the same origin has sent them since: how many may have arrived.
 */
export const unknownDeliveries = async (db: Queryable, runId: string, retryRunId: string | null): Promise<Map<string, number>> => {
    const rows = await prepared<{ node_id: string; unknown: number }>(
        db,
        'flowctl_deliveries_unknown',
        `SELECT f.node_id, count(*)::int AS unknown FROM deliveries f
         WHERE f.run_id = $1 AND f.status IN ('SENDING', 'FAILED')
           AND EXISTS (
               SELECT 1 FROM deliveries s
               WHERE s.origin_run_id = f.origin_run_id AND s.node_id = f.node_id AND s.element_index = f.element_index AND ${UNKNOWN})
           AND NOT EXISTS (
               SELECT 1 FROM deliveries s
               WHERE s.origin_run_id = f.origin_run_id AND s.node_id = f.node_id AND s.element_index = f.element_index AND s.status = 'SENT')
         GROUP BY f.node_id`,
        [runId, retryRunId]
    );
    return new Map(rows.map((row) => [row.node_id, row.unknown]));
};
