// A run's row changes status twice (PENDING -> RUNNING -> an end), and a status change is never a HOT
// update: every index of runs gets a new entry each time. Two of them cost that and served nothing
// the others could not: runs_running (folded into runs_active, which now leads with the status the
// claim looks for) and the tick index's entries for runs that have no tick (every manual run). About
// a tenth of the WAL an enqueued run writes on PostgreSQL.
export const sql = `
DROP INDEX runs_running;
DROP INDEX runs_active;
CREATE INDEX runs_active ON runs (workflow_id, status, created_at, seq) WHERE status IN ('PENDING', 'RUNNING');
DROP INDEX runs_scheduled_tick;
CREATE UNIQUE INDEX runs_scheduled_tick ON runs (workflow_id, scheduled_for) WHERE scheduled_for IS NOT NULL;
`;
