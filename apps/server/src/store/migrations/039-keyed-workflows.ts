// A workflow made with an Idempotency-Key carries it too, as a run does (038).
export const sql = `
ALTER TABLE workflows ADD COLUMN idempotency_key text, ADD COLUMN idempotency_fingerprint text;
CREATE UNIQUE INDEX workflows_idempotency_key ON workflows (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
`;
