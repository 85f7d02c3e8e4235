// Sessions that end at once (issue 18). A session is a refresh-token family: every access token names
// its session (`sid`), and the API checks on every request that it has not ended, so logout, a
// password reset and refresh-token reuse sign out access tokens too, in every API process.
// `signed_in_at` is when the password (or a code) was last proven in it: creating an API token or
// setting a password needs a recent one. Live families of earlier versions become sessions.
//
// `accounts.password_unset`: a contested sign-up was verified, so no password chosen at sign-up is
// usable; the owner must set one (POST /api/auth/password) or reset it before a password sign-in.
//
// Personal API tokens made without an expiry (they used to last until revoked) get the default 90 days.
//
// `resend_cooldowns`: when a sign-up code was last asked for an address, kept whether or not the
// address exists, so the answer (and its Retry-After) is the same for every address.
export const sql = `
CREATE TABLE sessions (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    signed_in_at timestamptz NOT NULL,
    ended_at timestamptz
);
CREATE INDEX sessions_account ON sessions (account_id);

INSERT INTO sessions (id, account_id, signed_in_at)
SELECT family_id, min(account_id), min(created_at) FROM refresh_tokens
WHERE revoked_at IS NULL
GROUP BY family_id;

ALTER TABLE accounts ADD COLUMN password_unset boolean NOT NULL DEFAULT false;

UPDATE api_tokens SET expires_at = now() + interval '90 days' WHERE expires_at IS NULL;

CREATE TABLE resend_cooldowns (
    email_key text PRIMARY KEY,
    last_at timestamptz NOT NULL
);
`;
