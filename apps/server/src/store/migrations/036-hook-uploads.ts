// Rows posted to a workflow's hook are stored as an upload (hook.csv) that only the runs it started
// read. They were kept for ever; `hook` marks them so that retention can delete each one once no run
// names it any more (store/retention.ts). A hook upload is never matched to an upload of the same
// bytes: it belongs to its runs alone, and deleting it must not take a file the account uploaded.
// Uploads made by hooks before this migration are recognised by a run naming them, created with it.
export const sql = `
ALTER TABLE uploads ADD COLUMN hook boolean NOT NULL DEFAULT false;
UPDATE uploads u SET hook = true
 WHERE u.filename = 'hook.csv'
   AND u.created_at >= (SELECT min(r.created_at) FROM runs r WHERE r.trigger_upload_id = u.id) - interval '1 minute';
DROP INDEX uploads_account_sha256;
CREATE UNIQUE INDEX uploads_account_sha256 ON uploads (account_id, sha256, filename) WHERE sha256 IS NOT NULL AND NOT hook;
CREATE INDEX runs_trigger_upload ON runs (trigger_upload_id) WHERE trigger_upload_id IS NOT NULL;
CREATE INDEX uploads_hook ON uploads (created_at) WHERE hook;
`;
