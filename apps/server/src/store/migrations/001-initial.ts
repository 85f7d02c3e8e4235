export const sql = `
CREATE TABLE accounts (
    id text PRIMARY KEY,
    email text NOT NULL,
    email_key text NOT NULL UNIQUE,
    full_name text NOT NULL,
    password_hash text NOT NULL,
    verified_at timestamptz,
    ai_api_key_enc text,
    ai_base_url text,
    ai_model text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE otps (
    account_id text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    code_hash text NOT NULL,
    expires_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    sent_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE refresh_tokens (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    family_id text NOT NULL,
    token_hash text NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

CREATE TABLE uploads (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    filename text NOT NULL,
    columns jsonb NOT NULL,
    row_count integer NOT NULL,
    size_bytes bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploads_account ON uploads (account_id, created_at);

-- Upload bytes when they live in the database (DATABASE_URL with BLOB_STORE=postgres), in chunks
-- small enough to stream.
CREATE TABLE upload_chunks (
    upload_id text NOT NULL,
    seq integer NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (upload_id, seq)
);

CREATE TABLE workflows (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name text NOT NULL,
    graph jsonb NOT NULL,
    webhook_url text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workflows_account ON workflows (account_id, created_at);
`;
