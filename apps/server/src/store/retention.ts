import type { Queryable } from './db.js';
import { prepared } from './prepared.js';

// Finished runs are kept RUN_RETENTION_DAYS after they ended; their node states and delivery records
// go with them (ON DELETE CASCADE). Deleted in batches, so that no statement holds locks for long.

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
