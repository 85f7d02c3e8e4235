// Crash loops end (issue 19 §5). Each lease renewal records how its worker was doing (heap and RSS
// against their limits, how late the heartbeat came, the run it was executing): see
// worker/vitals.ts. A worker that takes an expired lease over reads the previous holder's last
// record, which the takeover leaves in place, and fails at once a run whose worker died of it.
export const sql = `
ALTER TABLE workflow_leases ADD COLUMN vitals jsonb;
`;
