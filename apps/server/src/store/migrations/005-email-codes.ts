// E-mailed codes bound to what asked for them (services/accounts.ts explains the rules):
// - purpose 'verify': one row per sign-up of an unverified address, holding that sign-up's password
//   hash and name, so a code only ever activates the password chosen in the request that asked for it;
// - purpose 'reset': at most one row per account, for POST /api/auth/reset-password.
// Replaces `otps`, which held one code per account and let a later sign-up change the password
// behind an earlier sign-up's code. Pending codes are not carried over: they last 10 minutes.
// Refresh tokens gain the sealed pair that a retried refresh gets back within a few seconds.
export const sql = `
CREATE TABLE email_codes (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose text NOT NULL CHECK (purpose IN ('verify', 'reset')),
    password_hash text,
    full_name text,
    code_hash text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    sent_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX email_codes_account ON email_codes (account_id, purpose, created_at);
CREATE UNIQUE INDEX email_codes_one_reset ON email_codes (account_id) WHERE purpose = 'reset';

DROP TABLE otps;

ALTER TABLE refresh_tokens ADD COLUMN successor_enc text;
`;
