import type { Queryable } from './db.js';
import { prepared, preparedOne } from './prepared.js';
import { DRAIN_JOB } from './queue.js';

// How run slots are shared across accounts. A slot is a RUNNING run; an account may hold at most
// `cap` of them, counted here in the store so that the cap holds across every process sharing one
// PostgreSQL. A drain job whose account is at its cap gives its slot up ("parks": no lease, no job)
// and is woken when one of the account's runs ends (wakeParkedWorkflow).

/** RUNNING runs of the account that owns workflow `wf`, as an SQL expression. */
const RUNNING_OF_OWNER = (wf: string) => `(
    SELECT count(*) FROM runs x
    WHERE x.account_id = (SELECT account_id FROM workflows WHERE id = ${wf}) AND x.status = 'RUNNING')`;

/**
 * The `when` condition of claimNextRun under a cap (parameter `cap`): a run left RUNNING by an
 * earlier holder is already counted and is always taken over; a PENDING one only below the cap.
 */
export const underCap = (wf: string, cap: string): string => `(status = 'RUNNING' OR ${RUNNING_OF_OWNER(wf)} < ${cap})`;

/**
 * Takes the account's slot lock for the rest of the transaction. Two workers claiming runs of one
 * account at once would both count the same RUNNING runs (each statement sees only what was
 * committed when it began) and both pass the cap: with the lock, the second one's count, made in
 * its next statement, includes the first one's claim. FOR NO KEY UPDATE leaves the foreign-key
 * checks of inserted runs (KEY SHARE) unblocked.
 */
export const lockAccountSlots = async (tx: Queryable, workflowId: string): Promise<void> => {
    await tx.query('SELECT 1 FROM accounts WHERE id = (SELECT account_id FROM workflows WHERE id = $1) FOR NO KEY UPDATE', [workflowId]);
};

/** Whether the account owning the workflow runs `cap` runs or more. */
export const accountAtCap = async (db: Queryable, workflowId: string, cap: number): Promise<boolean> => {
    const row = await preparedOne<{ at_cap: boolean }>(db, 'flowctl_slots_accountAtCap', `SELECT ${RUNNING_OF_OWNER('$1')} >= $2 AS at_cap`, [workflowId, cap]);
    return row?.at_cap ?? false;
};

/**
 * Whether drain jobs of other accounts' workflows wait for a slot: a drain that finished a run then
 * gives its slot to the oldest of them instead of taking its workflow's next run (round-robin).
 */
export const othersWaiting = async (db: Queryable, accountId: string): Promise<boolean> => {
    const row = await preparedOne<{ waiting: boolean }>(
        db,
        'flowctl_slots_othersWaiting',
        `SELECT EXISTS (
             SELECT 1 FROM agenda_jobs j JOIN workflows w ON w.id = j.data ->> 'workflowId'
             WHERE j.name = '${DRAIN_JOB}' AND j.locked_at IS NULL AND j.next_run_at <= now() AND j.disabled = FALSE
               AND w.account_id <> $1
         ) AS waiting`,
        [accountId]
    );
    return row?.waiting ?? false;
};

/**
 * The account's parked workflow to wake now that one of its slots is free: the one with the
 * oldest PENDING run among those nobody drains (no live lease, no drain job waiting). One per
 * freed slot, so an account with many parked workflows does not flood the queue.
 */
export const parkedWorkflow = async (db: Queryable, accountId: string): Promise<string | null> => {
    const rows = await prepared<{ workflow_id: string }>(
        db,
        'flowctl_slots_parkedWorkflow',
        `SELECT r.workflow_id FROM runs r
         WHERE r.account_id = $1 AND r.status = 'PENDING'
           AND NOT EXISTS (SELECT 1 FROM workflow_leases l WHERE l.workflow_id = r.workflow_id AND l.expires_at > now())
           AND NOT EXISTS (
               SELECT 1 FROM agenda_jobs j
               WHERE j.name = '${DRAIN_JOB}' AND j.locked_at IS NULL AND j.next_run_at IS NOT NULL AND j.data ->> 'workflowId' = r.workflow_id)
         ORDER BY r.created_at, r.seq
         LIMIT 1`,
        [accountId]
    );
    return rows[0]?.workflow_id ?? null;
};

/**
 * A drain that gives its slot away sends its workflow's waiting drain job (Agenda takes the oldest
 * first) to the back of the queue. A run enqueued while the drain was starting may have left one
 * there, older than the jobs the slot is given to. Null when none waits: then wake the workflow.
 */
export const sendDrainToBack = async (db: Queryable, workflowId: string): Promise<string | null> => {
    const rows = await prepared<{ id: string }>(
        db,
        'flowctl_slots_sendDrainToBack',
        `UPDATE agenda_jobs SET next_run_at = now()
         WHERE name = '${DRAIN_JOB}' AND locked_at IS NULL AND data ->> 'workflowId' = $1 AND next_run_at IS NOT NULL AND disabled = FALSE
         RETURNING id::text`,
        [workflowId]
    );
    return rows[0]?.id ?? null;
};
