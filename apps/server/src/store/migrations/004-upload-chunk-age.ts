// When each upload's bytes were stored, so that bytes a crashed process left without an uploads row
// can be told from an upload still in flight, and removed (services/uploads.ts, sweepOrphanBlobs).
export const sql = `
ALTER TABLE upload_chunks ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
`;
