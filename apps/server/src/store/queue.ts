import type { Queryable } from './db.js';
import { prepared, preparedOne } from './prepared.js';

// Agenda's job rows, written by us only for the one job kind whose creation must share a statement
// with other writes. Agenda's own API would need a second round trip and could not dedupe.

export const DRAIN_JOB = 'drain-workflow';
export const WEBHOOK_JOB = 'deliver-webhook';
/** Not a job: the notification, on the job channel, that wakes the drain holding a workflow (queue/drain-wakes.ts). */
export const DRAIN_WAKE = 'wake-drain';
/** The LISTEN/NOTIFY channel of job announcements on PostgreSQL (queue/run-queue.ts). */
export const JOB_CHANNEL = 'flowctl_jobs';

/**
 * CTEs `held`, `waiting` and `job`: adds a drain job for the workflow in parameter `wf` unless one is
 * already waiting to be picked up, or a live lease holder exists. The holder looks for PENDING runs
 * again after releasing its lease, and `held` takes a key-share lock that makes that release wait for
 * this statement's commit, so new work is never left without a drainer. `also` is an extra condition
 * for inserting (e.g. that the run was inserted).
 */
export const drainJobCtes = (wf: string, also = 'TRUE'): string => `
    held AS (
        SELECT 1 FROM workflow_leases WHERE workflow_id = ${wf} AND expires_at > now() FOR KEY SHARE
    ),
    waiting AS (
        SELECT id FROM agenda_jobs
        WHERE name = '${DRAIN_JOB}' AND locked_at IS NULL AND data ->> 'workflowId' = ${wf}
          AND next_run_at IS NOT NULL AND disabled = FALSE
        FOR UPDATE
    ),
    job AS (
        INSERT INTO agenda_jobs (name, priority, next_run_at, type, data)
        SELECT '${DRAIN_JOB}', 0, now(), 'normal', jsonb_build_object('workflowId', ${wf}::text)
        WHERE (${also}) AND NOT EXISTS (SELECT 1 FROM held) AND NOT EXISTS (SELECT 1 FROM waiting)
        RETURNING id
    )`;

/**
 * CTE `announced`, after `drainJobCtes`: when the SQL condition `announce` holds (on PostgreSQL), the
 * statement announces the drain job it added or found waiting on the job channel itself, as Agenda's
 * own notification would, rather than in a NOTIFY round trip of its own after it. Delivered at commit,
 * so a worker never hears of a job it cannot yet see. Reference it (`EXISTS (SELECT 1 FROM
 * announced)`), or it is not run.
 */
export const ANNOUNCED = (announce: string) => `
    announced AS (
        SELECT pg_notify('${JOB_CHANNEL}', json_build_object('jobId', j.id, 'jobName', '${DRAIN_JOB}', 'nextRunAt', now(),
                                                   'priority', 0, 'timestamp', now())::text)
        FROM (SELECT COALESCE((SELECT id FROM job), (SELECT id FROM waiting LIMIT 1))::text AS id) j
        WHERE ${announce} AND j.id IS NOT NULL
    )`;

/**
 * Makes sure some worker will drain the workflow if it has runs to execute. Returns the job to
 * announce, if any. Looking for the runs here, not in a statement before, is one round trip fewer
 * for a drain that gives its place up while another account's job waits for it.
 */
export const wakeWorkflow = async (db: Queryable, workflowId: string): Promise<string | null> => {
    const row = await preparedOne<{ job_id: string | null }>(
        db,
        'flowctl_queue_wakeWorkflow',
        `WITH ${drainJobCtes('$1', "EXISTS (SELECT 1 FROM runs WHERE workflow_id = $1 AND status IN ('PENDING', 'RUNNING'))")}
         SELECT COALESCE((SELECT id FROM job), (SELECT id FROM waiting LIMIT 1))::text AS job_id`,
        [workflowId]
    );
    return row?.job_id ?? null;
};

/**
 * Workflows with PENDING or RUNNING runs that nobody is draining: no live lease and no drain job
 * waiting or locked within `lockLifetimeMs`. Normally empty; it catches work whose job was lost.
 */
export const strandedWorkflows = (db: Queryable, lockLifetimeMs: number): Promise<{ workflow_id: string }[]> =>
    prepared(
        db,
        'flowctl_queue_strandedWorkflows',
        `SELECT DISTINCT r.workflow_id FROM runs r
         WHERE r.status IN ('PENDING', 'RUNNING') AND r.created_at < now() - interval '1 second'
           AND NOT EXISTS (SELECT 1 FROM workflow_leases l WHERE l.workflow_id = r.workflow_id AND l.expires_at > now())
           AND NOT EXISTS (
               SELECT 1 FROM agenda_jobs j
               WHERE j.name = '${DRAIN_JOB}' AND j.data ->> 'workflowId' = r.workflow_id
                 AND ((j.locked_at IS NULL AND j.next_run_at IS NOT NULL)
                      OR j.locked_at > now() - $1 * interval '1 millisecond'))
         LIMIT 500`,
        [lockLifetimeMs]
    );

/**
 * Only for the embedded store, where one process owns the database: whatever a previous process
 * held (leases, locked drain jobs) died with it, so recovery need not wait for expiries. Its leases
 * are expired rather than deleted: the worker taking one over reads its holder's last record.
 */
export const forgetDeadHolders = async (db: Queryable): Promise<void> => {
    await db.query(`DELETE FROM agenda_jobs WHERE name = '${DRAIN_JOB}' AND locked_at IS NOT NULL`);
    await db.query("UPDATE workflow_leases SET expires_at = '-infinity' WHERE expires_at > '-infinity'");
};

/**
 * Finished one-shot jobs (drains, and webhook deliveries done or given up). Deleted in batches here
 * rather than by Agenda's removeOnComplete, which costs a statement per job and races its drain().
 */
export const deleteFinishedJobs = async (db: Queryable): Promise<void> => {
    await prepared(
        db,
        'flowctl_queue_deleteFinishedJobs',
        `DELETE FROM agenda_jobs WHERE name IN ('${DRAIN_JOB}', '${WEBHOOK_JOB}') AND next_run_at IS NULL AND locked_at IS NULL`,
        []
    );
};

/**
 * How long (ms) the oldest drain job that any worker could take now has been due: unlocked, or
 * locked longer ago than `lockLifetimeMs` (its holder is gone). Null when none is waiting.
 */
export const oldestDueDrainMs = async (db: Queryable, lockLifetimeMs: number): Promise<number | null> => {
    const row = await preparedOne<{ waited_ms: number | null }>(
        db,
        'flowctl_queue_oldestDueDrain',
        `SELECT (extract(epoch FROM now() - min(next_run_at)) * 1000)::float8 AS waited_ms FROM agenda_jobs
         WHERE name = '${DRAIN_JOB}' AND next_run_at <= now() AND disabled = FALSE
           AND (locked_at IS NULL OR locked_at < now() - $1 * interval '1 millisecond')`,
        [lockLifetimeMs]
    );
    return row?.waited_ms ?? null;
};

/**
 * Locks the next webhook delivery due, as Agenda's own lookup does (PostgresJobRepository
 * .getNextJobToRun in @agendajs/postgres-backend 6: due and unlocked, or locked past the lock
 * lifetime), but shared across accounts: `held` is how many deliveries each account holds in this
 * process now. An account holding `perAccount` is passed over; among the rest the account holding
 * the fewest goes first, then the earliest due. A delivery queued before its job named its account
 * counts as an account holding none. Returns the locked row.
 */
export const lockNextWebhookJob = (
    db: Queryable,
    at: { lockTime: Date; nextScanAt: Date; lockDeadline: Date; holder: string | null; held: Map<string, number>; perAccount: number }
): Promise<Record<string, unknown> | null> =>
    preparedOne<Record<string, unknown>>(
        db,
        'flowctl_queue_lockNextWebhookJob',
        `WITH held AS (SELECT * FROM unnest($5::text[], $6::int[]) AS h(account_id, slots))
         UPDATE agenda_jobs SET locked_at = $1, last_modified_by = $4
         WHERE id = (
             SELECT j.id FROM agenda_jobs j LEFT JOIN held h ON h.account_id = j.data ->> 'accountId'
             WHERE j.name = '${WEBHOOK_JOB}' AND j.disabled = FALSE
               AND ((j.locked_at IS NULL AND j.next_run_at <= $2) OR j.locked_at <= $3)
               AND COALESCE(h.slots, 0) < $7
             ORDER BY COALESCE(h.slots, 0) ASC, j.next_run_at ASC NULLS LAST, j.priority DESC
             LIMIT 1
             FOR UPDATE OF j SKIP LOCKED
         )
         RETURNING *`,
        [at.lockTime, at.nextScanAt, at.lockDeadline, at.holder, [...at.held.keys()], [...at.held.values()], at.perAccount]
    );

/**
 * Live drain jobs by account, as an SQL CTE body: jobs locked after `deadline` (running in some
 * process, or about to), counted for the account that owns their workflow. At most every process's
 * drain places, so a small set.
 */
const HELD_DRAINS = (deadline: string) => `
    SELECT w.account_id, count(*) AS n FROM agenda_jobs h JOIN workflows w ON w.id = h.data ->> 'workflowId'
    WHERE h.name = '${DRAIN_JOB}' AND h.locked_at > ${deadline}
    GROUP BY w.account_id`;

/**
 * Locks the next drain job, as Agenda's own lookup does (due and unlocked, or locked past the lock
 * lifetime) but taking first the jobs of the account that holds the fewest live drain jobs across
 * every process sharing the store, then the oldest. Agenda alone takes the oldest first: an account
 * with more workflows with work than the drain places kept another account's job waiting until its
 * whole backlog was gone. One statement, as Agenda's. Returns the locked row.
 */
export const lockNextDrainJob = (
    db: Queryable,
    at: { lockTime: Date; nextScanAt: Date; lockDeadline: Date; holder: string | null }
): Promise<Record<string, unknown> | null> =>
    preparedOne<Record<string, unknown>>(
        db,
        'flowctl_queue_lockNextDrainJob',
        `WITH held AS (${HELD_DRAINS('$3')}),
         next AS (
             SELECT j.id FROM agenda_jobs j
             LEFT JOIN workflows w ON w.id = j.data ->> 'workflowId'
             LEFT JOIN held ON held.account_id = w.account_id
             WHERE j.name = '${DRAIN_JOB}' AND j.disabled = FALSE
               AND ((j.locked_at IS NULL AND j.next_run_at <= $2) OR j.locked_at <= $3)
             ORDER BY COALESCE(held.n, 0) ASC, j.next_run_at ASC NULLS LAST, j.priority DESC
             LIMIT 1
             FOR UPDATE OF j SKIP LOCKED
         )
         UPDATE agenda_jobs SET locked_at = $1, last_modified_by = $4
         WHERE id = (SELECT id FROM next)
         RETURNING *`,
        [at.lockTime, at.nextScanAt, at.lockDeadline, at.holder]
    );

/**
 * Whether a drain job of an account holding fewer live drain jobs than this one waits, due and
 * unlocked: a drain of this account that finished a run in a process whose drain places are all
 * taken then gives its place up (its workflow queued again), so the waiting account's job is
 * taken next (lockNextDrainJob) instead of waiting for this account's whole backlog.
 */
export const fewerHeldWaiting = async (db: Queryable, accountId: string, lockLifetimeMs: number): Promise<boolean> => {
    const row = await preparedOne<{ waiting: boolean }>(
        db,
        'flowctl_queue_fewerHeldWaiting',
        `WITH held AS (${HELD_DRAINS("now() - $2 * interval '1 millisecond'")})
         SELECT EXISTS (
             SELECT 1 FROM agenda_jobs j JOIN workflows w ON w.id = j.data ->> 'workflowId'
             WHERE j.name = '${DRAIN_JOB}' AND j.locked_at IS NULL AND j.next_run_at <= now() AND j.disabled = FALSE
               AND w.account_id <> $1
               AND COALESCE((SELECT n FROM held WHERE held.account_id = w.account_id), 0)
                   < COALESCE((SELECT n FROM held WHERE held.account_id = $1), 0) - 1
         ) AS waiting`,
        [accountId, lockLifetimeMs]
    );
    return row?.waiting ?? false;
};
