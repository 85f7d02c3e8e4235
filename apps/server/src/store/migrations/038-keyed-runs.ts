// A run enqueued with an Idempotency-Key carries the key, so that the key holds even when the request's
// answer was lost after the run was committed (the database connection dropped before the reply, or
// the process died before the answer was stored): the retry's INSERT meets this index and enqueues
// nothing (services/idempotency.ts insertKeyed). Only keyed runs have an entry.
export const sql = `
ALTER TABLE runs ADD COLUMN idempotency_key text, ADD COLUMN idempotency_fingerprint text;
CREATE UNIQUE INDEX runs_idempotency_key ON runs (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
`;
