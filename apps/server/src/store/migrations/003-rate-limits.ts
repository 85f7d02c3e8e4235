// Rate-limit counters shared by every API process on one PostgreSQL (rate-limiter-flexible's layout:
// key, points, expire in epoch ms). UNLOGGED: counters need no crash safety, and skipping the WAL
// keeps the per-request upsert cheap. The embedded store counts in memory and leaves it empty.
// Also an index for pruning an account's expired refresh tokens at each log-in.
export const sql = `
CREATE UNLOGGED TABLE rate_limits (
    key text PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
);

CREATE INDEX refresh_tokens_account ON refresh_tokens (account_id, expires_at);
`;
