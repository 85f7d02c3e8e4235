// An OUTPUT element left out because its address is on the suppression list (issue 29) is recorded
// as a delivery with status SUPPRESSED: the ledger lists it, the run's figures rebuilt from the
// records count it, and neither a retry nor a resumed attempt sends it (it is not FAILED, nor SENDING).
// The constraint is the one 006 declared inline on the column, under PostgreSQL's default name.
//
// deliveries_failed (run_id) WHERE status = 'FAILED' goes: deliveries_unsent (018) covers the same rows
// in (node, element) order. With both, PostgreSQL could page the ledger's failed rows through
// deliveries_failed and sort them all, a plan that reads every failed row of a run for each page
// (test: deliveries-plan, on PostgreSQL).
export const sql = `
DROP INDEX IF EXISTS deliveries_failed;
ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_status_check CHECK (status IN ('SENDING', 'SENT', 'FAILED', 'SUPPRESSED'));
`;
