import type { Queryable } from './db.js';
import { prepared, preparedOne } from './prepared.js';

// A lease says which worker may execute runs of one workflow. Taking one is a conditional upsert: a
// free or expired lease becomes ours with a fresh random token; a live one is left alone.

/**
 * What a lease holder last recorded with its renewal (worker/vitals.ts). Sizes in bytes; `runId` is
 * the run it was executing then, if any.
 */
export interface Vitals {
    runId: string | null;
    heapUsed: number;
    heapLimit: number;
    rss: number;
    /** The process's memory limit (a container's), when it has one. */
    memoryLimit: number | null;
    /** How much later than due the heartbeat came (the event loop was held that long). */
    lateMs: number;
    /** Runs the process was executing. */
    runs: number;
    /** Whether the run was in a node that builds its rows (DATA_SOURCE, FILTER, AI). */
    loading: boolean;
}

/**
 * Null when another holder's lease is still live; else the workflow's account, whose turn the run
 * slots keep (worker/slots.ts). Taken over from an expired holder, the lease keeps
 * that holder's last `vitals` (the update leaves them): the answer carries them, until our first renewal.
 */
export const acquireLease = async (
    db: Queryable,
    workflowId: string,
    holder: string,
    token: string,
    ttlMs: number
): Promise<{ previous: Vitals | null; accountId: string } | null> => {
    const row = await preparedOne<{ vitals: Vitals | null; account_id: string }>(
        db,
        'flowctl_leases_acquireLease',
        `INSERT INTO workflow_leases (workflow_id, holder, token, expires_at)
         SELECT $1, $2, $3, now() + $4 * interval '1 millisecond' WHERE EXISTS (SELECT 1 FROM workflows WHERE id = $1)
         ON CONFLICT (workflow_id) DO UPDATE
             SET holder = EXCLUDED.holder, token = EXCLUDED.token, acquired_at = now(), expires_at = EXCLUDED.expires_at
             WHERE workflow_leases.expires_at <= now()
         RETURNING vitals, (SELECT account_id FROM workflows WHERE id = $1) AS account_id`,
        [workflowId, holder, token, ttlMs]
    );
    return row ? { previous: row.vitals ?? null, accountId: row.account_id } : null;
};

export interface Renewal {
    held: boolean;
    /** Whether a cancel was requested for `runId` (false when no run was given). */
    cancelRequested: boolean;
}

/**
 * Extends the lease and, in the same round trip, reads whether the current run should stop. With
 * `vitals`, the same write records them (the heartbeat's); without, the last ones stay. With `job`,
 * the same statement keeps the drain job's lock (what Agenda's job.touch() writes: its locked_at),
 * so a heartbeat is one statement.
 */
export const renewLease = async (
    db: Queryable,
    workflowId: string,
    token: string,
    ttlMs: number,
    runId: string | null,
    vitals: Vitals | null = null,
    job: { id: string; lockedAt: Date } | null = null
): Promise<Renewal> => {
    const row = await preparedOne<{ held: boolean; cancel_requested: boolean | null }>(
        db,
        'flowctl_leases_renewLease',
        `WITH l AS (
             UPDATE workflow_leases SET expires_at = now() + $3 * interval '1 millisecond', vitals = COALESCE($5::jsonb, vitals)
             WHERE workflow_id = $1 AND token = $2 RETURNING 1
         ),
         touched AS (UPDATE agenda_jobs SET locked_at = $7 WHERE id = $6::uuid)
         SELECT EXISTS (SELECT 1 FROM l) AS held,
                (SELECT cancel_requested_at IS NOT NULL FROM runs WHERE id = $4) AS cancel_requested`,
        [workflowId, token, ttlMs, runId, vitals ? JSON.stringify(vitals) : null, job?.id ?? null, job?.lockedAt ?? null]
    );
    return { held: row?.held ?? false, cancelRequested: row?.cancel_requested ?? false };
};

export const releaseLease = async (db: Queryable, workflowId: string, token: string): Promise<void> => {
    await prepared(db, 'flowctl_leases_releaseLease', 'DELETE FROM workflow_leases WHERE workflow_id = $1 AND token = $2', [workflowId, token]);
};

/** Whether the workflow has runs waiting or interrupted. */
export const hasActiveRuns = async (db: Queryable, workflowId: string): Promise<boolean> => {
    const row = await preparedOne<{ active: boolean }>(
        db,
        'flowctl_leases_hasActiveRuns',
        `SELECT EXISTS (SELECT 1 FROM runs WHERE workflow_id = $1 AND status IN ('PENDING', 'RUNNING')) AS active`,
        [workflowId]
    );
    return row?.active ?? false;
};
