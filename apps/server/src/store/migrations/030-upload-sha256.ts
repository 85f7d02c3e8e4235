// Uploads remember the SHA-256 of their bytes (issue 33): the same file sent again by the same account
// under the same name answers the upload it already has, so `apply` from a fresh machine (a CI runner
// with no local cache) creates nothing and reports nothing changed. Uploads stored before this have no
// hash and are never matched. The unique index makes two racing uploads of one file end as one.
export const sql = `
ALTER TABLE uploads ADD COLUMN sha256 text;
CREATE UNIQUE INDEX uploads_account_sha256 ON uploads (account_id, sha256, filename) WHERE sha256 IS NOT NULL;
`;
