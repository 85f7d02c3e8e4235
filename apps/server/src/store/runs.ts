import type { RunResult } from '@flowctl/engine';

import type { Queryable } from './db.js';
import { type IdempotencyClaim, KEYED_CONFLICT } from './idempotency.js';
import { prepared, preparedOne } from './prepared.js';
import { ANNOUNCED, DRAIN_WAKE, drainJobCtes, JOB_CHANNEL, WEBHOOK_JOB } from './queue.js';

// Runs and their node states. Every write a worker makes is fenced by its lease token: a worker
// whose lease was taken over changes nothing.

/** The graph of the revision run `r` executes. */
export const REVISION_GRAPH = (r: string) => `(SELECT v.graph FROM workflow_revisions v WHERE v.workflow_id = ${r}.workflow_id AND v.revision = ${r}.revision)`;

const FENCE = (wf: string, token: string) => `EXISTS (SELECT 1 FROM workflow_leases WHERE workflow_id = ${wf} AND token = ${token})`;

export interface EnqueuedRow {
    created_at: Date;
    /** The workflow revision the run executes. */
    revision: number;
    /** The drain job to announce to the workers, if one was added or is waiting. */
    job_id: string | null;
    /** A drain holds the workflow's lease: it is woken (queue/drain-wakes.ts) instead of a job being added. */
    held: boolean;
    /** The statement announced `job_id` itself (store/queue.ts ANNOUNCED); absent where it cannot. */
    announced?: boolean;
}

/**
 * CTE `wake`: when the statement's run was inserted while a drain holds the workflow's lease (CTE
 * `held`), notifies the job channel so that the drain, in whichever process, claims it without
 * lingering to the end (queue/drain-wakes.ts). Part of the enqueue's own statement: no round trip.
 * Every statement that inserts a run uses it (scheduled and hook runs too: store/schedules.ts).
 */
export const WAKE = (wf: string) => `
    wake AS (
        SELECT pg_notify('${JOB_CHANNEL}', json_build_object('jobId', ${wf}::text, 'jobName', '${DRAIN_WAKE}', 'nextRunAt', NULL,
                                                   'priority', 0, 'timestamp', now())::text)
        WHERE EXISTS (SELECT 1 FROM held) AND EXISTS (SELECT 1 FROM run)
    )`;

/**
 * Inserts a PENDING run of the workflow's current revision and, in the same statement, a drain job
 * when the workflow needs one, announced to the workers when `announce` (PostgreSQL: the statement's
 * own notification, one round trip fewer per enqueue). Null when the workflow does not exist or is
 * another account's.
 */
export const enqueueRun = (
    db: Queryable,
    runId: string,
    accountId: string,
    workflowId: string,
    announce = false,
    key: IdempotencyClaim | null = null
): Promise<EnqueuedRow | null> =>
    preparedOne<EnqueuedRow>(
        db,
        // Without a key, no ON CONFLICT: its speculative insertion costs every enqueue a WAL record more.
        key ? 'flowctl_runs_enqueueKeyedRun' : 'flowctl_runs_enqueueRun',
        `WITH run AS (
             INSERT INTO runs (id, account_id, workflow_id, revision, status, idempotency_key, idempotency_fingerprint)
             SELECT $1, w.account_id, w.id, w.revision, 'PENDING', $5, $6 FROM workflows w WHERE w.id = $2 AND w.account_id = $3
             ${key ? KEYED_CONFLICT : ''}
             RETURNING created_at, revision
         ), ${drainJobCtes('$2', 'EXISTS (SELECT 1 FROM run)')}, ${WAKE('$2')}, ${ANNOUNCED('$4::boolean AND EXISTS (SELECT 1 FROM run)')}
         SELECT run.created_at, run.revision, COALESCE((SELECT id FROM job), (SELECT id FROM waiting LIMIT 1))::text AS job_id,
                EXISTS (SELECT 1 FROM wake) AS held, EXISTS (SELECT 1 FROM announced) AS announced
         FROM run`,
        [runId, workflowId, accountId, announce, key?.key ?? null, key?.fingerprint ?? null]
    );

/**
 * Inserts a PENDING retry run of `sourceRunId` (same workflow, same revision, or the workflow's
 * current one with `latest`) and its drain job, like enqueueRun. Null when the source run does not exist or is another account's. With
 * `withReplies` (a retry that executes the graph again), the language-model replies recorded for the
 * source run become the retry's own, so it asks only for the others; they count no calls or tokens
 * for the retry, which did not pay for them.
 */
export const enqueueRetryRun = (
    db: Queryable,
    runId: string,
    accountId: string,
    sourceRunId: string,
    withReplies: boolean,
    latest = false
): Promise<(EnqueuedRow & { workflow_id: string }) | null> =>
    preparedOne<EnqueuedRow & { workflow_id: string }>(
        db,
        'flowctl_runs_enqueueRetryRun',
        `WITH source AS (SELECT workflow_id FROM runs WHERE id = $2 AND account_id = $3),
         run AS (
             INSERT INTO runs (id, account_id, workflow_id, revision, status, retry_of, trigger_upload_id)
             SELECT $1, s.account_id, s.workflow_id, CASE WHEN $5::boolean THEN w.revision ELSE s.revision END, 'PENDING', s.id, s.trigger_upload_id
             FROM runs s JOIN workflows w ON w.id = s.workflow_id WHERE s.id = $2 AND s.account_id = $3
             RETURNING created_at, workflow_id, revision
         ), replies AS (
             INSERT INTO ai_replies (run_id, node_id, element_index, request_hash, reply, calls, prompt_tokens, completion_tokens)
             SELECT $1, a.node_id, a.element_index, a.request_hash, a.reply, 0, 0, 0
             FROM ai_replies a WHERE a.run_id = $2 AND $4::boolean AND EXISTS (SELECT 1 FROM run)
         ), ${drainJobCtes('(SELECT workflow_id FROM source)', 'EXISTS (SELECT 1 FROM run)')}, ${WAKE('(SELECT workflow_id FROM source)')}
         SELECT run.created_at, run.workflow_id, run.revision, COALESCE((SELECT id FROM job), (SELECT id FROM waiting LIMIT 1))::text AS job_id,
                EXISTS (SELECT 1 FROM wake) AS held
         FROM run`,
        [runId, sourceRunId, accountId, withReplies, latest]
    );

export interface ClaimedRunRow {
    id: string;
    account_id: string;
    workflow_id: string;
    graph: unknown;
    cancel_requested_at: Date | null;
    takeovers: number;
    created_at: Date;
    started_at: Date;
    /** RUNNING when the run was interrupted (its worker died) and is taken over now. */
    previous_status: 'PENDING' | 'RUNNING';
    /** A stopping worker gave the run back (it waited PENDING): it may have sent e-mails already. */
    handed_back: boolean;
    /** Set for a retry run: the run whose failed e-mails it sends again. */
    retry_of: string | null;
    /** Rows posted to the workflow's hook, kept as an upload (a run started by its hook). */
    trigger_upload_id: string | null;
}

/**
 * CTE `next`: the run of workflow `wf` to execute next, locked. First one left RUNNING by an earlier
 * holder (other than `exclude`, the run just finished), else the oldest PENDING one; `when` gates it.
 * The status is checked again on the locked row, so a run cancelled meanwhile is not taken.
 */
const NEXT = (wf: string, exclude: string, when: string) => `
    next AS (
        SELECT id, status, handed_back FROM runs
        WHERE id = COALESCE(
                (SELECT id FROM runs WHERE workflow_id = ${wf} AND status = 'RUNNING' AND id IS DISTINCT FROM ${exclude} LIMIT 1),
                (SELECT id FROM runs WHERE workflow_id = ${wf} AND status = 'PENDING' ORDER BY created_at, seq LIMIT 1))
          AND status IN ('PENDING', 'RUNNING') AND (${when})
        FOR UPDATE
    ),
    claimed AS (
        UPDATE runs r SET status = 'RUNNING', started_at = COALESCE(r.started_at, now()),
            takeovers = r.takeovers + CASE WHEN next.status = 'RUNNING' AND NOT r.handed_back THEN 1 ELSE 0 END,
            handed_back = FALSE
        FROM next WHERE r.id = next.id
        RETURNING r.id, r.account_id, r.workflow_id, ${REVISION_GRAPH('r')} AS graph, r.cancel_requested_at, r.takeovers, r.created_at, r.started_at,
                  next.status AS previous_status, next.handed_back, r.retry_of, r.trigger_upload_id
    )`;

/**
 * Marks the next run of the workflow RUNNING: one statement. Null when there is none or the lease is
 * no longer ours. Which workflow gets a run slot next is the worker's (worker/slots.ts), not the store's.
 */
export const claimNextRun = (db: Queryable, workflowId: string, token: string): Promise<ClaimedRunRow | null> =>
    preparedOne<ClaimedRunRow>(db, 'flowctl_runs_claimNextRun', `WITH ${NEXT('$1', 'NULL', FENCE('$1', '$2'))} SELECT * FROM claimed`, [workflowId, token]);

export interface NodeRow {
    node_id: string;
    status: string;
    error: string | null;
    started_at: string | null;
    completed_at: string | null;
    summary: unknown;
    output: unknown;
}

/** Node states an interrupted run reached; outputs only where a resumed run can reuse them. */
export const loadNodeStates = (db: Queryable, runId: string): Promise<NodeRow[]> =>
    prepared<NodeRow>(
        db,
        'flowctl_runs_loadNodeStates',
        `SELECT node_id, status, error, started_at, completed_at, summary,
                CASE WHEN status = 'SUCCESS' THEN output END AS output
         FROM run_nodes WHERE run_id = $1`,
        [runId]
    );

const NODE_UPSERT = (runParam: string, rowsParam: string, fence: string) => `
    INSERT INTO run_nodes (run_id, node_id, status, error, started_at, completed_at, summary, output)
    SELECT ${runParam}, s.node_id, s.status, s.error, s.started_at, s.completed_at, s.summary, s.output
    FROM jsonb_to_recordset(${rowsParam}::jsonb)
        AS s(node_id text, status text, error text, started_at timestamptz, completed_at timestamptz, summary jsonb, output jsonb)
    WHERE ${fence}
    ON CONFLICT (run_id, node_id) DO UPDATE SET status = EXCLUDED.status, error = EXCLUDED.error,
        started_at = EXCLUDED.started_at, completed_at = EXCLUDED.completed_at,
        summary = EXCLUDED.summary, output = EXCLUDED.output`;

/** Writes node states; false when the lease is no longer ours (nothing was written). */
export const saveNodeStates = async (db: Queryable, runId: string, workflowId: string, token: string, rows: NodeRow[]): Promise<boolean> => {
    const row = await preparedOne<{ held: boolean }>(
        db,
        'flowctl_runs_saveNodeStates',
        `WITH saved AS (${NODE_UPSERT('$1', '$4', FENCE('$2', '$3'))})
         SELECT ${FENCE('$2', '$3')} AS held`,
        [runId, workflowId, token, JSON.stringify(rows)]
    );
    return row?.held ?? false;
};

export interface Finish {
    runId: string;
    workflowId: string;
    token: string;
    status: 'SUCCESS' | 'FAILED' | 'CANCELLED';
    result: unknown;
    error: string | null;
    nodes: NodeRow[];
}

export interface Finished {
    webhookJobId: string | null;
    /** The run claimed next, when asked for. */
    next: ClaimedRunRow | null;
}

/**
 * Writes the terminal state and the last node states, queues the webhook delivery when the
 * workflow has a webhook and, with `claimNext`, claims the workflow's next run: one statement
 * where a drain would otherwise need two per run. Null when the lease is no longer ours.
 */
export const finishRun = async (db: Queryable, f: Finish, claimNext: boolean): Promise<Finished | null> => {
    const row = await preparedOne<Partial<ClaimedRunRow> & { webhook_job_id: string | null }>(
        db,
        'flowctl_runs_finishRun',
        `WITH nodes AS (${NODE_UPSERT('$1', '$7', FENCE('$2', '$3'))}),
         done AS (
             UPDATE runs SET status = $4, completed_at = now(), result = $5::jsonb, error = $6
             WHERE id = $1 AND status = 'RUNNING' AND ${FENCE('$2', '$3')}
             RETURNING id, workflow_id, account_id
         ),
         hook AS (
             INSERT INTO agenda_jobs (name, priority, next_run_at, type, data)
             SELECT '${WEBHOOK_JOB}', 0, now(), 'normal', jsonb_build_object('runId', done.id, 'accountId', done.account_id)
             FROM done JOIN workflows w ON w.id = done.workflow_id WHERE w.webhook_url IS NOT NULL
             RETURNING id
         ),
         ${NEXT('$2', '$1', '$8::boolean AND EXISTS (SELECT 1 FROM done)')}
         SELECT (SELECT id FROM hook)::text AS webhook_job_id, claimed.* FROM done LEFT JOIN claimed ON TRUE`,
        [f.runId, f.workflowId, f.token, f.status, JSON.stringify(f.result), f.error, JSON.stringify(f.nodes), claimNext]
    );
    if (!row) {
        return null;
    }

    const { webhook_job_id, ...next } = row;
    return { webhookJobId: webhook_job_id, next: next.id ? (next as ClaimedRunRow) : null };
};

/**
 * A stopping worker gives the run back: it waits PENDING (its running nodes too) until a worker
 * executes it again, first of its workflow's runs, and that worker resumes it.
 */
export const handBackRun = async (db: Queryable, runId: string, workflowId: string, token: string, nodes: NodeRow[]): Promise<void> => {
    const waiting = nodes.map((row) => (row.status === 'RUNNING' ? { ...row, status: 'PENDING' } : row));
    await prepared(
        db,
        'flowctl_runs_handBackRun',
        `WITH nodes AS (${NODE_UPSERT('$1', '$4', FENCE('$2', '$3'))}),
         running AS (
             UPDATE run_nodes SET status = 'PENDING'
             WHERE run_id = $1 AND status = 'RUNNING' AND ${FENCE('$2', '$3')}
               AND node_id NOT IN (SELECT s.node_id FROM jsonb_to_recordset($4::jsonb) AS s(node_id text))
         )
         UPDATE runs SET status = 'PENDING', handed_back = TRUE WHERE id = $1 AND status = 'RUNNING' AND ${FENCE('$2', '$3')}`,
        [runId, workflowId, token, JSON.stringify(waiting)]
    );
};

/** Runs of the account not yet finished whose revision reads the upload, oldest first. */
export const unfinishedRunsReadingUpload = (db: Queryable, accountId: string, uploadId: string): Promise<{ id: string; workflow_id: string }[]> =>
    prepared<{ id: string; workflow_id: string }>(
        db,
        'flowctl_runs_readingUpload',
        `SELECT r.id, r.workflow_id FROM runs r JOIN workflow_revisions v ON v.workflow_id = r.workflow_id AND v.revision = r.revision
         WHERE r.account_id = $1 AND r.status IN ('PENDING', 'RUNNING') AND v.graph->'nodes' @> $2::jsonb
         ORDER BY r.created_at, r.seq`,
        [accountId, JSON.stringify([{ data: { uploadId } }])]
    );

export interface RunRow {
    id: string;
    workflow_id: string;
    status: string;
    graph: { nodes?: { id: string; type: string }[] };
    revision: number;
    created_at: Date;
    started_at: Date | null;
    completed_at: Date | null;
    cancel_requested_at: Date | null;
    /** The engine's figures, plus e-mails sent again after a crash hid their outcome (same Message-ID). */
    result: (RunResult & { possiblyDuplicated?: number }) | null;
    error: string | null;
    retry_of: string | null;
    trigger_type: 'manual' | 'schedule' | 'webhook';
    scheduled_for: Date | null;
    /** Node rows as JSON (timestamps as text). */
    nodes: Omit<NodeRow, 'output'>[] | null;
}

export const getRun = (db: Queryable, accountId: string, runId: string): Promise<RunRow | null> =>
    preparedOne<RunRow>(
        db,
        'flowctl_runs_getRun',
        `SELECT r.id, r.workflow_id, r.status, ${REVISION_GRAPH('r')} AS graph, r.revision, r.created_at, r.started_at, r.completed_at,
                r.cancel_requested_at, r.result, r.error, r.retry_of, r.trigger_type, r.scheduled_for,
                (SELECT jsonb_agg(jsonb_build_object('node_id', n.node_id, 'status', n.status, 'error', n.error,
                        'started_at', n.started_at, 'completed_at', n.completed_at, 'summary', n.summary))
                 FROM run_nodes n WHERE n.run_id = r.id) AS nodes
         FROM runs r WHERE r.id = $1 AND r.account_id = $2`,
        [runId, accountId]
    );

export interface RunListRow {
    workflow_id: string;
    id: string | null;
    status: string | null;
    revision: number | null;
    created_at: Date | null;
    seq: number | null;
    retry_of: string | null;
    trigger_type: 'manual' | 'schedule' | 'webhook' | null;
    scheduled_for: Date | null;
}

/**
 * One page of a workflow's runs after the run with sequence number `after`. One row with a null id
 * for a workflow without runs (in this page); no rows for an unknown or foreign workflow.
 */
export const listRuns = (
    db: Queryable,
    accountId: string,
    workflowId: string,
    page: { order: 'asc' | 'desc'; limit: number; after: number | null }
): Promise<RunListRow[]> => {
    const [cmp, dir] = page.order === 'asc' ? ['>', 'ASC'] : ['<', 'DESC'];
    return prepared<RunListRow>(
        db,
        `flowctl_runs_listRuns_${page.order}`,
        `SELECT w.id AS workflow_id, r.id, r.status, r.revision, r.created_at, r.seq, r.retry_of, r.trigger_type, r.scheduled_for
         FROM workflows w LEFT JOIN LATERAL (
             SELECT id, status, revision, created_at, seq, retry_of, trigger_type, scheduled_for FROM runs
             WHERE workflow_id = w.id
               AND ($3::bigint IS NULL OR (created_at, seq) ${cmp} (SELECT created_at, seq FROM runs WHERE seq = $3))
             ORDER BY created_at ${dir}, seq ${dir}
             LIMIT $4
         ) r ON TRUE
         WHERE w.id = $1 AND w.account_id = $2`,
        [workflowId, accountId, page.after, page.limit]
    );
};

/**
 * Cancels a PENDING run at once (queueing its webhook), or asks the worker to stop a RUNNING one.
 * Returns the status before, or null for an unknown or foreign run.
 */
export const cancelRun = (db: Queryable, accountId: string, runId: string): Promise<{ previous: string; webhook_job_id: string | null } | null> =>
    preparedOne<{ previous: string; webhook_job_id: string | null }>(
        db,
        'flowctl_runs_cancelRun',
        `WITH target AS (SELECT id, status FROM runs WHERE id = $1 AND account_id = $2 FOR UPDATE),
         changed AS (
             UPDATE runs r SET
                 status = CASE WHEN t.status = 'PENDING' THEN 'CANCELLED' ELSE r.status END,
                 completed_at = CASE WHEN t.status = 'PENDING' THEN now() ELSE r.completed_at END,
                 -- A PENDING run handed back at shutdown may have sent e-mails already.
                 result = CASE WHEN t.status = 'PENDING' THEN jsonb_build_object('totalRows', 0, 'filteredOut', 0, 'emailsSent',
                     (SELECT count(*) FROM deliveries d WHERE d.run_id = r.id AND d.status = 'SENT')) ELSE r.result END,
                 cancel_requested_at = COALESCE(r.cancel_requested_at, now())
             FROM target t WHERE r.id = t.id AND t.status IN ('PENDING', 'RUNNING')
             RETURNING r.id, r.workflow_id, r.account_id, r.status
         ),
         hook AS (
             INSERT INTO agenda_jobs (name, priority, next_run_at, type, data)
             SELECT '${WEBHOOK_JOB}', 0, now(), 'normal', jsonb_build_object('runId', c.id, 'accountId', c.account_id)
             FROM changed c JOIN workflows w ON w.id = c.workflow_id
             WHERE c.status = 'CANCELLED' AND w.webhook_url IS NOT NULL
             RETURNING id
         )
         SELECT t.status AS previous, (SELECT id FROM hook)::text AS webhook_job_id FROM target t`,
        [runId, accountId]
    );

/**
 * Before a workflow is deleted: its PENDING runs become CANCELLED, a cancel is asked of its RUNNING
 * ones. Returns the RUNNING runs, whose worker stops at its next element boundary.
 */
export const cancelWorkflowRuns = async (db: Queryable, accountId: string, workflowId: string): Promise<string[]> => {
    const rows = await prepared<{ id: string; status: string }>(
        db,
        'flowctl_runs_cancelWorkflowRuns',
        `UPDATE runs SET
             status = CASE WHEN status = 'PENDING' THEN 'CANCELLED' ELSE status END,
             completed_at = CASE WHEN status = 'PENDING' THEN now() ELSE completed_at END,
             result = CASE WHEN status = 'PENDING' THEN $3::jsonb ELSE result END,
             cancel_requested_at = COALESCE(cancel_requested_at, now())
         WHERE workflow_id = $1 AND account_id = $2 AND status IN ('PENDING', 'RUNNING')
         RETURNING id, status`,
        [workflowId, accountId, JSON.stringify({ totalRows: 0, filteredOut: 0, emailsSent: 0 })]
    );
    return rows.filter((row) => row.status === 'RUNNING').map((row) => row.id);
};

/** RUNNING runs of a workflow whose worker still holds its lease. */
export const runsHoldingWorkflow = async (db: Queryable, workflowId: string): Promise<string[]> => {
    const rows = await prepared<{ id: string }>(
        db,
        'flowctl_runs_runsHoldingWorkflow',
        `SELECT r.id FROM runs r JOIN workflow_leases l ON l.workflow_id = r.workflow_id AND l.expires_at > now()
         WHERE r.workflow_id = $1 AND r.status = 'RUNNING' ORDER BY r.created_at, r.id`,
        [workflowId]
    );
    return rows.map((row) => row.id);
};

/** Of `ids`, the runs that still exist and have not ended. */
export const activeRunIds = async (db: Queryable, ids: string[]): Promise<Set<string>> => {
    const rows = await prepared<{ id: string }>(db, 'flowctl_runs_active', "SELECT id FROM runs WHERE id = ANY($1::text[]) AND status IN ('PENDING', 'RUNNING')", [ids]);
    return new Set(rows.map((row) => row.id));
};
