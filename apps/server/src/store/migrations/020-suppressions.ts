// Recipients' consent (issue 29): each account's suppression list. `email_key` is the address as
// compared (trimmed, lower-cased: suppressionKey()), `email` as it was given. Sending looks addresses
// up by the primary key a chunk at a time (`email_key = ANY($2)`); the list pages newest first by
// (created_at, id), as runs do.
export const sql = `
CREATE TABLE suppressions (
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    email_key text NOT NULL,
    email text NOT NULL,
    reason text NOT NULL CHECK (reason IN ('unsubscribed', 'bounced', 'complained', 'manual')),
    workflow_id text,
    id text NOT NULL DEFAULT ('sup_' || replace(gen_random_uuid()::text, '-', '')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, email_key)
);
CREATE INDEX suppressions_newest ON suppressions (account_id, created_at DESC, id DESC);
`;
