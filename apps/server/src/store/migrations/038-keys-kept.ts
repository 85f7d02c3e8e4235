// What a request sent with an Idempotency-Key makes carries the key (a run, a workflow), so that the key
// holds even when the request's answer was lost after the commit (the database connection dropped
// before the reply, or the process died before the answer was stored): the retry's INSERT meets this
// index and makes nothing (services/idempotency.ts insertKeyed). Only keyed rows have an entry.
export const sql = `
ALTER TABLE runs ADD COLUMN idempotency_key text, ADD COLUMN idempotency_fingerprint text;
CREATE UNIQUE INDEX runs_idempotency_key ON runs (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
ALTER TABLE workflows ADD COLUMN idempotency_key text, ADD COLUMN idempotency_fingerprint text;
CREATE UNIQUE INDEX workflows_idempotency_key ON workflows (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
`;
