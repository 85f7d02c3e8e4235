import type { Queryable } from './db.js';
import { type IdempotencyClaim, KEYED_CONFLICT } from './idempotency.js';
import { prepared, preparedOne } from './prepared.js';
import { drainJobCtes } from './queue.js';
import { WAKE } from './runs.js';

// How workflows start by themselves: a schedule's state and a hook's hash (workflow_triggers), and the
// one statement that turns a tick into a run. Every process runs the tick loop; the statement makes
// each tick one run whatever processes compute it, crash or restart.

export interface TriggerRow {
    workflow_id: string;
    cron: string | null;
    timezone: string | null;
    next_run_at: Date | null;
    paused: boolean;
    skipped_ticks: string;
    has_hook: boolean;
}

const COLUMNS = 'workflow_id, cron, timezone, next_run_at, paused, skipped_ticks, hook_hash IS NOT NULL AS has_hook';

/** The trigger rows of these workflows (those that have one). */
export const triggersOf = (db: Queryable, workflowIds: string[]): Promise<TriggerRow[]> =>
    workflowIds.length === 0 ? Promise.resolve([]) : prepared<TriggerRow>(db, 'flowctl_schedules_triggersOf', `SELECT ${COLUMNS} FROM workflow_triggers WHERE workflow_id = ANY($1::text[])`, [workflowIds]);

export interface TriggerSetting {
    schedule: { cron: string; timezone: string; nextRunAt: Date } | null;
    /** A new hook's hash; 'keep' keeps the one there is; null removes it. */
    hookHash: string | 'keep' | null;
}

/**
 * Writes what the workflow's TRIGGER now says. An unchanged schedule keeps its next tick and count;
 * a changed one starts from `nextRunAt`. The row goes when there is neither a schedule nor a hook.
 */
export const setTrigger = async (db: Queryable, workflowId: string, setting: TriggerSetting): Promise<TriggerRow | null> => {
    if (setting.schedule === null && setting.hookHash === null) {
        await prepared(db, 'flowctl_schedules_removeTrigger', 'DELETE FROM workflow_triggers WHERE workflow_id = $1', [workflowId]);
        return null;
    }

    const s = setting.schedule;
    return await preparedOne<TriggerRow>(
        db,
        'flowctl_schedules_setTrigger',
        `INSERT INTO workflow_triggers AS t (workflow_id, cron, timezone, next_run_at, hook_hash)
         SELECT w.id, $2, $3, $4, CASE WHEN $5::text = 'keep' THEN NULL ELSE $5 END FROM workflows w WHERE w.id = $1
         ON CONFLICT (workflow_id) DO UPDATE SET
             next_run_at = CASE WHEN t.cron IS NOT DISTINCT FROM EXCLUDED.cron AND t.timezone IS NOT DISTINCT FROM EXCLUDED.timezone
                                THEN t.next_run_at ELSE EXCLUDED.next_run_at END,
             skipped_ticks = CASE WHEN t.cron IS NOT DISTINCT FROM EXCLUDED.cron THEN t.skipped_ticks ELSE 0 END,
             cron = EXCLUDED.cron,
             timezone = EXCLUDED.timezone,
             hook_hash = CASE WHEN $5::text = 'keep' THEN t.hook_hash ELSE EXCLUDED.hook_hash END
         RETURNING ${COLUMNS}`,
        [workflowId, s?.cron ?? null, s?.timezone ?? null, s?.nextRunAt ?? null, setting.hookHash]
    );
};

/** Pauses or resumes; a resumed schedule starts again at `nextRunAt` (no backlog). Null: no trigger row. */
export const setPaused = (db: Queryable, accountId: string, workflowId: string, paused: boolean, nextRunAt: Date | null): Promise<TriggerRow | null> =>
    preparedOne<TriggerRow>(
        db,
        'flowctl_schedules_setPaused',
        `UPDATE workflow_triggers t SET paused = $3,
             next_run_at = CASE WHEN t.paused AND NOT $3 AND t.cron IS NOT NULL THEN $4 ELSE t.next_run_at END
         FROM workflows w WHERE t.workflow_id = $2 AND w.id = t.workflow_id AND w.account_id = $1
         RETURNING t.workflow_id, t.cron, t.timezone, t.next_run_at, t.paused, t.skipped_ticks, t.hook_hash IS NOT NULL AS has_hook`,
        [accountId, workflowId, paused, nextRunAt]
    );

export interface DueSchedule {
    workflow_id: string;
    cron: string;
    timezone: string;
    next_run_at: Date;
}

/** Schedules whose next tick has come, by the database's clock (shared by every process). */
export const dueSchedules = async (db: Queryable, limit: number): Promise<{ now: Date; due: DueSchedule[] }> => {
    const rows = await prepared<DueSchedule & { now: Date }>(
        db,
        'flowctl_schedules_due',
        `SELECT workflow_id, cron, timezone, next_run_at, now() AS now FROM workflow_triggers
         WHERE next_run_at IS NOT NULL AND NOT paused AND next_run_at <= now()
         ORDER BY next_run_at LIMIT $1`,
        [limit]
    );
    if (rows.length > 0) {
        return { now: rows[0]!.now, due: rows };
    }

    return { now: (await preparedOne<{ now: Date }>(db, 'flowctl_schedules_now', 'SELECT now() AS now', []))!.now, due: [] };
};

export interface TickOutcome {
    /** False: another process handled this tick first (or the schedule changed meanwhile). */
    handled: boolean;
    /** The run inserted for the tick; null when skipped (a run of the workflow was PENDING or RUNNING). */
    created_at: Date | null;
    job_id: string | null;
    /** A drain holds the workflow's lease: it was woken (queue/drain-wakes.ts) instead of a job being added. */
    held: boolean;
}

/**
 * Handles tick `tick` of a schedule whose first unhandled tick is `due`: moves it on to `next` (only
 * if still `due`, so one process wins), and in the same statement inserts the tick's run, or counts
 * the tick skipped when a run of the workflow is PENDING or RUNNING. The run is also unique on
 * (workflow, scheduled_for): ON CONFLICT DO NOTHING, whatever happened before. `tick` null: only
 * move on (the ticks missed were too old to run). `missed`: ticks passed over (late), counted skipped.
 */
export const takeTick = (db: Queryable, workflowId: string, due: Date, tick: Date | null, next: Date, runId: string, missed = 0): Promise<TickOutcome | null> =>
    preparedOne<TickOutcome>(
        db,
        'flowctl_schedules_takeTick',
        `WITH busy AS (
             SELECT EXISTS (SELECT 1 FROM runs WHERE workflow_id = $1 AND status IN ('PENDING', 'RUNNING')) AS busy
         ), moved AS (
             UPDATE workflow_triggers t SET next_run_at = $4,
                 skipped_ticks = t.skipped_ticks + $6 + CASE WHEN $3::timestamptz IS NOT NULL AND (SELECT busy FROM busy) THEN 1 ELSE 0 END
             WHERE t.workflow_id = $1 AND t.next_run_at = $2 AND NOT t.paused
             RETURNING t.workflow_id
         ), run AS (
             INSERT INTO runs (id, account_id, workflow_id, revision, status, trigger_type, scheduled_for)
             SELECT $5, w.account_id, w.id, w.revision, 'PENDING', 'schedule', $3 FROM workflows w
             WHERE w.id = $1 AND $3::timestamptz IS NOT NULL AND EXISTS (SELECT 1 FROM moved) AND NOT (SELECT busy FROM busy)
             ON CONFLICT (workflow_id, scheduled_for) WHERE scheduled_for IS NOT NULL DO NOTHING
             RETURNING created_at
         ), ${drainJobCtes('$1::text', 'EXISTS (SELECT 1 FROM run)')}, ${WAKE('$1::text')}
         SELECT EXISTS (SELECT 1 FROM moved) AS handled, (SELECT created_at FROM run) AS created_at,
                CASE WHEN EXISTS (SELECT 1 FROM run) THEN COALESCE((SELECT id FROM job), (SELECT id FROM waiting LIMIT 1))::text END AS job_id,
                EXISTS (SELECT 1 FROM wake) AS held`,
        [workflowId, due, tick, next, runId, missed]
    );

/** The workflow whose hook has this hash, with its account and whether it is paused. */
export const workflowByHook = (db: Queryable, hookHash: string): Promise<{ workflow_id: string; account_id: string; paused: boolean } | null> =>
    preparedOne(
        db,
        'flowctl_schedules_workflowByHook',
        'SELECT t.workflow_id, w.account_id, t.paused FROM workflow_triggers t JOIN workflows w ON w.id = t.workflow_id WHERE t.hook_hash = $1',
        [hookHash]
    );

/** Replaces the hook's hash; false when the workflow has no hook (or is not the account's). */
export const replaceHook = async (db: Queryable, accountId: string, workflowId: string, hookHash: string): Promise<boolean> => {
    const rows = await prepared(
        db,
        'flowctl_schedules_replaceHook',
        `UPDATE workflow_triggers t SET hook_hash = $3 FROM workflows w
         WHERE t.workflow_id = $2 AND w.id = t.workflow_id AND w.account_id = $1 AND t.hook_hash IS NOT NULL RETURNING t.workflow_id`,
        [accountId, workflowId, hookHash]
    );
    return rows.length > 0;
};

/**
 * Inserts a PENDING run of the workflow's current revision started by its hook, reading `uploadId`'s
 * rows, with its drain job (or the wake of the drain holding its lease), like enqueueRun.
 */
export const enqueueHookRun = (
    db: Queryable,
    runId: string,
    workflowId: string,
    uploadId: string | null,
    key: IdempotencyClaim | null
): Promise<{ created_at: Date; job_id: string | null; held: boolean } | null> =>
    preparedOne(
        db,
        'flowctl_schedules_enqueueHookRun',
        `WITH run AS (
             INSERT INTO runs (id, account_id, workflow_id, revision, status, trigger_type, trigger_upload_id, idempotency_key, idempotency_fingerprint)
             SELECT $1, w.account_id, w.id, w.revision, 'PENDING', 'webhook', $3, $4, $5 FROM workflows w WHERE w.id = $2
             ${KEYED_CONFLICT}
             RETURNING created_at
         ), ${drainJobCtes('$2::text', 'EXISTS (SELECT 1 FROM run)')}, ${WAKE('$2::text')}
         SELECT run.created_at, COALESCE((SELECT id FROM job), (SELECT id FROM waiting LIMIT 1))::text AS job_id,
                EXISTS (SELECT 1 FROM wake) AS held
         FROM run`,
        [runId, workflowId, uploadId, key?.key ?? null, key?.fingerprint ?? null]
    );
