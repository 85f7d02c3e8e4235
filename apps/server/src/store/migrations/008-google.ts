// The Google link of an account (tokens sealed with ENCRYPTION_KEY) and the one-time OAuth states of
// connects in flight. A state row holds the PKCE verifier, so a leaked `state` alone cannot finish a link.
export const sql = `
CREATE TABLE google_links (
    account_id text PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    email text NOT NULL,
    refresh_token_enc text NOT NULL,
    access_token_enc text,
    access_expires_at timestamptz,
    linked_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE google_oauth_states (
    nonce text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    code_verifier_enc text NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX google_oauth_states_expiry ON google_oauth_states (expires_at);
`;
