// An OUTPUT element left out because its address is on the suppression list (issue 29) is recorded
// as a delivery with status SUPPRESSED: the ledger lists it, the run's figures rebuilt from the
// records count it, and neither a retry nor a resumed attempt sends it (it is not FAILED, nor SENDING).
// The constraint is the one 006 declared inline on the column, under PostgreSQL's default name.
export const sql = `
ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_status_check CHECK (status IN ('SENDING', 'SENT', 'FAILED', 'SUPPRESSED'));
`;
