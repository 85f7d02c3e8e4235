// Run slots are shared across accounts (store/run-slots.ts): a claim counts the account's RUNNING
// runs, and a freed slot wakes the account's oldest PENDING run. Both read this index alone.
// And /readyz writes one row (store/readiness.ts): a store that can write nothing is not ready.
export const sql = `
CREATE INDEX runs_account_active ON runs (account_id, status, created_at, seq) WHERE status IN ('PENDING', 'RUNNING');
CREATE TABLE readiness (
    id integer PRIMARY KEY,
    checked_at timestamptz NOT NULL
);
`;
