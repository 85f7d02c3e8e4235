import type { Queryable } from './db.js';
import { prepared, preparedOne } from './prepared.js';

// How often a run was interrupted without getting anywhere, and what a run given up leaves to retry.
// Writes are fenced by the workflow lease, like every other write a worker makes.

const FENCE = 'EXISTS (SELECT 1 FROM workflow_leases WHERE workflow_id = $2 AND token = $3)';

/**
 * At the start of an attempt at a resumed run: the previous attempt's `progressed` flag becomes the
 * strike count (reset if it sent something new; one more if it was interrupted without; unchanged if it
 * was handed back at shutdown), and the run is given up once `limit` strikes are reached, or at once
 * with `giveUp` (its previous attempt took its worker down). Null when the lease is no longer ours.
 */
export const startAttempt = (
    db: Queryable,
    run: { id: string; workflowId: string; token: string },
    interrupted: boolean,
    limit: number,
    giveUp = false
): Promise<{ strikes: number; given_up: boolean } | null> =>
    preparedOne(
        db,
        'flowctl_interruptions_startAttempt',
        `WITH counted AS (
             SELECT CASE WHEN progressed THEN 0 WHEN $4::boolean THEN strikes + 1 ELSE strikes END AS strikes
             FROM runs WHERE id = $1
         )
         UPDATE runs r SET strikes = counted.strikes, progressed = FALSE, given_up = counted.strikes >= $5 OR $6::boolean
         FROM counted WHERE r.id = $1 AND ${FENCE}
         RETURNING r.strikes, r.given_up`,
        [run.id, run.workflowId, run.token, interrupted, limit, giveUp]
    );

/** The attempt sent a new e-mail: its interruption, if one comes, is not a strike. Once per attempt. */
export const noteProgress = async (db: Queryable, run: { id: string; workflowId: string; token: string }): Promise<void> => {
    await prepared(db, 'flowctl_interruptions_noteProgress', `UPDATE runs SET progressed = TRUE WHERE id = $1 AND NOT progressed AND ${FENCE}`, [
        run.id,
        run.workflowId,
        run.token
    ]);
};

/**
 * Before an e-mail goes out again within one attempt after a copy that went out unanswered (a
 * timeout, a dropped connection): it may arrive twice, and is counted as possibly duplicated.
 */
export const markResent = async (db: Queryable, runId: string, nodeId: string, index: number): Promise<void> => {
    await prepared(db, 'flowctl_interruptions_markResent', 'UPDATE deliveries SET resent = TRUE WHERE run_id = $1 AND node_id = $2 AND element_index = $3', [
        runId,
        nodeId,
        index
    ]);
};

export interface RetrySource {
    given_up: boolean;
    /**
     * A retry of this run executes the graph again (see enqueueRetryRun): it was given up, or it ended
     * FAILED or CANCELLED before every node other than an OUTPUT node succeeded. Otherwise a retry
     * only sends again the e-mails the mail server refused.
     */
    rederive: boolean;
    /** The first run of the chain of retries the source belongs to. */
    origin_run_id: string;
}

/** The run a retry run retries: whether it was given up, and the run its elements count against. */
export const retrySource = (db: Queryable, runId: string): Promise<RetrySource | null> =>
    preparedOne<RetrySource>(
        db,
        'flowctl_interruptions_retrySource',
        `WITH RECURSIVE chain AS (
             SELECT id, retry_of, 0 AS depth FROM runs WHERE id = $1
             UNION ALL
             SELECT r.id, r.retry_of, chain.depth + 1 FROM runs r JOIN chain ON r.id = chain.retry_of
         )
         SELECT r.given_up,
                r.given_up OR (r.status IN ('FAILED', 'CANCELLED') AND EXISTS (
                    SELECT 1
                    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.graph -> 'nodes') = 'array' THEN v.graph -> 'nodes' ELSE '[]'::jsonb END) AS g(node)
                    LEFT JOIN run_nodes s ON s.run_id = r.id AND s.node_id = g.node ->> 'id'
                    WHERE g.node ->> 'type' IS DISTINCT FROM 'OUTPUT' AND s.status IS DISTINCT FROM 'SUCCESS')) AS rederive,
                (SELECT id FROM chain ORDER BY depth DESC LIMIT 1) AS origin_run_id
         FROM runs r JOIN workflow_revisions v ON v.workflow_id = r.workflow_id AND v.revision = r.revision WHERE r.id = $1`,
        [runId]
    );

export interface ChainDelivery {
    element_index: number;
    status: 'SENT' | 'FAILED' | 'SENDING';
    /** Written by the run asking (an earlier attempt of it), not by another run of the chain. */
    own: boolean;
    /** A copy went out after one whose outcome is unknown: even FAILED, the element may have arrived. */
    resent: boolean;
}

/**
 * Every record of one node's elements across a chain of retries (all runs of origin `originRunId`):
 * what a retry of a given-up run must not send again.
 */
export const chainDeliveries = (db: Queryable, originRunId: string, runId: string, nodeId: string): Promise<ChainDelivery[]> =>
    prepared<ChainDelivery>(
        db,
        'flowctl_interruptions_chainDeliveries',
        `SELECT element_index, status, run_id = $2 AS own, resent FROM deliveries
         WHERE origin_run_id = $1 AND node_id = $3`,
        [originRunId, runId, nodeId]
    );

/**
 * Per OUTPUT node of a run: e-mails recorded as accepted, and those whose outcome is unknown (left
 * under way by an attempt that died, or sent again after such a copy and then refused).
 */
export const sentByNode = async (db: Queryable, runId: string): Promise<Map<string, { sent: number; unknown: number }>> => {
    const rows = await prepared<{ node_id: string; sent: number; unknown: number }>(
        db,
        'flowctl_interruptions_sentByNode',
        `SELECT node_id, count(*) FILTER (WHERE status = 'SENT')::int AS sent,
                count(*) FILTER (WHERE status = 'SENDING' OR (resent AND status = 'FAILED'))::int AS unknown
         FROM deliveries WHERE run_id = $1 GROUP BY node_id`,
        [runId]
    );
    return new Map(rows.map((row) => [row.node_id, { sent: row.sent, unknown: row.unknown }]));
};

/** Elements of a run whose outcome was never recorded, with the attempt that wrote each intent. */
export const sendingDeliveries = (db: Queryable, runId: string): Promise<{ node_id: string; element_index: number; attempt: string | null }[]> =>
    prepared(db, 'flowctl_interruptions_sending', "SELECT node_id, element_index, attempt FROM deliveries WHERE run_id = $1 AND status = 'SENDING'", [runId]);

/**
 * A run ending without executing further settles what its attempts' notes know: elements the server
 * accepted become SENT, and the intents of elements never handed to a connection are removed (they
 * were never sent: a retry sends them). The rest stays SENDING: unknown.
 *
 * The notes are those of the attempt that wrote the intent, and speak only of its own copies. An
 * element flagged `resent` had an earlier copy go out unanswered (an attempt that died, or a timeout):
 * that its last copy never went out, or was refused, says nothing of the first, which may have
 * arrived. Such an intent is kept, SENDING: removed, the element looked never sent, the run given up
 * counted it nowhere and its retry sent it under its own Message-ID.
 */
export const settleSending = async (db: Queryable, runId: string, accepted: { node_id: string; element_index: number }[], unsent: { node_id: string; element_index: number }[]) => {
    if (accepted.length > 0) {
        await prepared(
            db,
            'flowctl_interruptions_settleAccepted',
            `UPDATE deliveries d SET status = 'SENT', sent_at = now()
             FROM unnest($2::text[], $3::int[]) AS a(node_id, element_index)
             WHERE d.run_id = $1 AND d.node_id = a.node_id AND d.element_index = a.element_index AND d.status = 'SENDING'`,
            [runId, accepted.map((a) => a.node_id), accepted.map((a) => a.element_index)]
        );
    }

    if (unsent.length > 0) {
        await prepared(
            db,
            'flowctl_interruptions_settleUnsent',
            `DELETE FROM deliveries d USING unnest($2::text[], $3::int[]) AS u(node_id, element_index)
             WHERE d.run_id = $1 AND d.node_id = u.node_id AND d.element_index = u.element_index AND d.status = 'SENDING' AND NOT d.resent`,
            [runId, unsent.map((u) => u.node_id), unsent.map((u) => u.element_index)]
        );
    }
};
