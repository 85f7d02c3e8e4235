// Giving up on a run (issue 20 §1). An interruption that made progress is not a strike: `progressed`
// is set by the attempt that sends its first new e-mail, and the next attempt turns it into
// `strikes` (reset when it was set, else one more). A run given up after too many strikes leaves its
// unsent rows to POST …/retry, which derives them again from the run's graph snapshot.
// Finished runs are deleted RUN_RETENTION_DAYS after they ended (issue 20 §5): the index finds them.
export const sql = `
ALTER TABLE runs ADD COLUMN strikes integer NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN progressed boolean NOT NULL DEFAULT false;
ALTER TABLE runs ADD COLUMN given_up boolean NOT NULL DEFAULT false;
CREATE INDEX runs_finished ON runs (completed_at) WHERE status IN ('SUCCESS', 'FAILED', 'CANCELLED');
`;
