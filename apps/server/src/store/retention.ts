import type { Queryable } from './db.js';
import { prepared } from './prepared.js';

// Finished runs are kept RUN_RETENTION_DAYS after they ended; their node states and delivery records
// go with them (ON DELETE CASCADE). Deleted in batches, so that no statement holds locks for long.
// A workflow revision is kept while a run names it, and the newest KEPT_REVISIONS always.

const BATCH = 1000;

/** Deletes the runs that ended more than `days` days ago. Returns how many. */
export const deleteExpiredRuns = async (db: Queryable, days: number): Promise<number> => {
    let deleted = 0;
    for (;;) {
        const rows = await prepared<{ id: string }>(
            db,
            'flowctl_retention_deleteExpiredRuns',
            `WITH expired AS (
                 SELECT id FROM runs
                 WHERE status IN ('SUCCESS', 'FAILED', 'CANCELLED') AND completed_at < now() - $1 * interval '1 day'
                 ORDER BY completed_at LIMIT $2
             )
             DELETE FROM runs r USING expired WHERE r.id = expired.id RETURNING r.id`,
            [days, BATCH]
        );
        deleted += rows.length;
        if (rows.length < BATCH) {
            return deleted;
        }
    }
};

/** Revisions every workflow keeps, used or not: its newest ones (the current one among them). */
export const KEPT_REVISIONS = 100;

/**
 * Deletes the revisions past each workflow's newest KEPT_REVISIONS that no run names any more (runs
 * are deleted by deleteExpiredRuns first, so a revision lives as long as its runs). Returns how many.
 */
export const deleteUnusedRevisions = async (db: Queryable): Promise<number> => {
    const rows = await prepared<{ revision: number }>(
        db,
        'flowctl_revisions_deleteUnused',
        `DELETE FROM workflow_revisions v
         USING workflows w
         WHERE w.id = v.workflow_id AND v.revision <= w.revision - $1
           AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.workflow_id = v.workflow_id AND r.revision = v.revision)
         RETURNING v.revision`,
        [KEPT_REVISIONS]
    );
    return rows.length;
};

/**
 * A hook upload younger than this may belong to a hook request still enqueueing its run (the upload
 * is stored first); older, a run names it or never will.
 */
export const HOOK_UPLOAD_GRACE_MINUTES = 60;

/**
 * Deletes the uploads made by hooks that no run names any more: a hook's rows are read only by the run
 * the POST started and by retries of it (which name the same upload), so they go with the last of those
 * runs, RUN_RETENTION_DAYS after it ended (deleteExpiredRuns first), or when its workflow is deleted.
 * One a workflow's DATA_SOURCE was pointed at is kept. Returns the ids, whose bytes the caller removes.
 */
export const deleteUnusedHookUploads = async (db: Queryable): Promise<string[]> => {
    const deleted: string[] = [];
    for (;;) {
        const rows = await prepared<{ id: string }>(
            db,
            'flowctl_retention_deleteUnusedHookUploads',
            `WITH unused AS (
                 SELECT u.id FROM uploads u
                 WHERE u.hook AND u.created_at < now() - $1 * interval '1 minute'
                   AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.trigger_upload_id = u.id)
                   AND NOT EXISTS (
                       SELECT 1 FROM workflows w
                       WHERE w.account_id = u.account_id AND w.graph->'nodes' @> jsonb_build_array(jsonb_build_object('data', jsonb_build_object('uploadId', u.id)))
                   )
                 ORDER BY u.created_at LIMIT $2
             )
             DELETE FROM uploads u USING unused WHERE u.id = unused.id RETURNING u.id`,
            [HOOK_UPLOAD_GRACE_MINUTES, BATCH]
        );
        deleted.push(...rows.map((row) => row.id));
        if (rows.length < BATCH) {
            return deleted;
        }
    }
};
