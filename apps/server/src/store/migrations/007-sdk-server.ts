// Personal API tokens, idempotency keys, and the notifications that wake long-polling run watchers.
export const sql = `
CREATE TABLE api_tokens (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name text NOT NULL,
    -- SHA-256 of the secret: it has 256 random bits, so a fast hash is enough and the table holds no usable token.
    token_hash text NOT NULL UNIQUE,
    -- The first characters, to tell tokens apart in a list.
    prefix text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    expires_at timestamptz
);
CREATE INDEX api_tokens_account ON api_tokens (account_id, created_at);

-- The first answer to a request sent with an Idempotency-Key, replayed to retries for 24 hours.
-- status_code is NULL while the first request is still being answered.
CREATE TABLE idempotency_keys (
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    key text NOT NULL,
    fingerprint text NOT NULL,
    status_code integer,
    response jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

-- Every change of a run or of one of its nodes is announced with the run id. Notifications with the
-- same payload in one transaction are sent once, so a statement writing many nodes costs one.
CREATE FUNCTION flowctl_notify_run_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'runs' THEN
        PERFORM pg_notify('flowctl_run_changes', COALESCE(NEW.id, OLD.id));
    ELSE
        PERFORM pg_notify('flowctl_run_changes', COALESCE(NEW.run_id, OLD.run_id));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER runs_notify_change AFTER INSERT OR UPDATE OR DELETE ON runs
    FOR EACH ROW EXECUTE FUNCTION flowctl_notify_run_change();
CREATE TRIGGER run_nodes_notify_change AFTER INSERT OR UPDATE ON run_nodes
    FOR EACH ROW EXECUTE FUNCTION flowctl_notify_run_change();
`;
