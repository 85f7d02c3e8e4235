import type { Queryable } from './db.js';
import { afterKeyset, KEYSET_COLUMN, KEYSET_ORDER, keysetParams, type Page, type PageRequest, toPage } from './keyset.js';
import { prepared } from './prepared.js';

export interface UploadRecord {
    id: string;
    accountId: string;
    filename: string;
    columns: string[];
    rowCount: number;
    sizeBytes: number;
    createdAt: Date;
}

interface UploadRow {
    id: string;
    account_id: string;
    filename: string;
    columns: string[];
    row_count: number;
    size_bytes: number;
    created_at: Date;
}

// Named, not `*`: a statement prepared by a running process must keep its result type when a later
// migration adds columns. Statements are prepared (see prepared.ts): PGlite plans cost more than they run.
const COLUMNS = 'id, account_id, filename, columns, row_count, size_bytes, created_at';

const toRecord = (row: UploadRow): UploadRecord => ({
    id: row.id,
    accountId: row.account_id,
    filename: row.filename,
    columns: row.columns,
    rowCount: row.row_count,
    sizeBytes: row.size_bytes,
    createdAt: row.created_at
});

/** Upload metadata; the bytes live in the blob store under the same id. Every query is scoped by account. */
export interface UploadsStore {
    insert(upload: Omit<UploadRecord, 'createdAt'>): Promise<UploadRecord>;
    find(accountId: string, uploadId: string): Promise<UploadRecord | null>;
    /** Newest first, one page. */
    list(accountId: string, page: PageRequest): Promise<Page<UploadRecord>>;
    /** False when there was no such upload for this account. */
    delete(accountId: string, uploadId: string): Promise<boolean>;
    /** The header and file name of each of `uploadIds` that exists and belongs to the account. */
    headers(accountId: string, uploadIds: string[]): Promise<Map<string, { filename: string; columns: string[] }>>;
    /** Which of `uploadIds` exist, whatever their account: for housekeeping only. */
    existingInAnyAccount(uploadIds: string[]): Promise<Set<string>>;
}

export const uploadsStore = (db: Queryable): UploadsStore => ({
    async insert(upload) {
        const [row] = await prepared<UploadRow>(
            db,
            'flowctl_uploads_insert',
            `INSERT INTO uploads (id, account_id, filename, columns, row_count, size_bytes)
             VALUES ($1, $2, $3, $4::jsonb, $5, $6) RETURNING ${COLUMNS}`,
            [upload.id, upload.accountId, upload.filename, JSON.stringify(upload.columns), upload.rowCount, upload.sizeBytes]
        );
        return toRecord(row!);
    },
    async find(accountId, uploadId) {
        const [row] = await prepared<UploadRow>(db, 'flowctl_uploads_find', `SELECT ${COLUMNS} FROM uploads WHERE id = $1 AND account_id = $2`, [uploadId, accountId]);
        return row ? toRecord(row) : null;
    },
    async list(accountId, page) {
        const rows = await prepared<UploadRow & { keyset_at: string }>(
            db,
            'flowctl_uploads_listPage',
            `SELECT ${COLUMNS}, ${KEYSET_COLUMN} FROM uploads WHERE account_id = $1 AND ${afterKeyset('$2', '$3')} ${KEYSET_ORDER} LIMIT $4`,
            [accountId, ...keysetParams(page)]
        );
        return toPage(rows, page.limit, toRecord);
    },
    async delete(accountId, uploadId) {
        const rows = await prepared(db, 'flowctl_uploads_delete', 'DELETE FROM uploads WHERE id = $1 AND account_id = $2 RETURNING id', [uploadId, accountId]);
        return rows.length > 0;
    },
    async headers(accountId, uploadIds) {
        if (uploadIds.length === 0) {
            return new Map();
        }

        const rows = await prepared<{ id: string; filename: string; columns: string[] }>(
            db,
            'flowctl_uploads_headers',
            'SELECT id, filename, columns FROM uploads WHERE account_id = $1 AND id = ANY($2::text[])',
            [accountId, uploadIds]
        );
        return new Map(rows.map((row) => [row.id, { filename: row.filename, columns: row.columns }]));
    },
    async existingInAnyAccount(uploadIds) {
        const rows = await db.query<{ id: string }>('SELECT id FROM uploads WHERE id = ANY($1::text[])', [uploadIds]);
        return new Set(rows.map((row) => row.id));
    }
});
