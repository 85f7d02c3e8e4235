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
    /** Hex SHA-256 of the bytes; null for uploads stored before the hash was kept. */
    sha256: string | null;
    createdAt: Date;
}

interface UploadRow {
    id: string;
    account_id: string;
    filename: string;
    columns: string[];
    row_count: number;
    size_bytes: number;
    sha256: string | null;
    created_at: Date;
}

// Named, not `*`: a statement prepared by a running process must keep its result type when a later
// migration adds columns. Statements are prepared (see prepared.ts): PGlite plans cost more than they run.
const COLUMNS = 'id, account_id, filename, columns, row_count, size_bytes, sha256, created_at';

const toRecord = (row: UploadRow): UploadRecord => ({
    id: row.id,
    accountId: row.account_id,
    filename: row.filename,
    columns: row.columns,
    rowCount: row.row_count,
    sizeBytes: row.size_bytes,
    sha256: row.sha256,
    createdAt: row.created_at
});

/** Upload metadata; the bytes live in the blob store under the same id. Every query is scoped by account. */
export interface UploadsStore {
    /**
     * Records the upload, unless the account already has one of the same name and SHA-256: then
     * nothing is written and `created` is false with the upload it has.
     */
    insert(upload: Omit<UploadRecord, 'createdAt'>): Promise<{ upload: UploadRecord; created: boolean }>;
    /** Records the rows posted to a hook: never matched to another upload, deleted once no run names it. */
    insertHook(upload: Omit<UploadRecord, 'createdAt'>): Promise<UploadRecord>;
    find(accountId: string, uploadId: string): Promise<UploadRecord | null>;
    /** Newest first, one page. */
    list(accountId: string, page: PageRequest): Promise<Page<UploadRecord>>;
    /** Newest first, one page, only uploads whose bytes have this SHA-256. */
    listBySha256(accountId: string, sha256: string, page: PageRequest): Promise<Page<UploadRecord>>;
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
            `INSERT INTO uploads (id, account_id, filename, columns, row_count, size_bytes, sha256)
             VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7)
             ON CONFLICT (account_id, sha256, filename) WHERE sha256 IS NOT NULL AND NOT hook DO NOTHING
             RETURNING ${COLUMNS}`,
            [upload.id, upload.accountId, upload.filename, JSON.stringify(upload.columns), upload.rowCount, upload.sizeBytes, upload.sha256]
        );
        if (row) {
            return { upload: toRecord(row), created: true };
        }

        // The conflicting row may be deleted between the two statements: then the next try inserts.
        const [existing] = await prepared<UploadRow>(
            db,
            'flowctl_uploads_findSame',
            `SELECT ${COLUMNS} FROM uploads WHERE account_id = $1 AND sha256 = $2 AND filename = $3 AND NOT hook`,
            [upload.accountId, upload.sha256, upload.filename]
        );
        return existing ? { upload: toRecord(existing), created: false } : this.insert(upload);
    },
    async insertHook(upload) {
        const [row] = await prepared<UploadRow>(
            db,
            'flowctl_uploads_insertHook',
            `INSERT INTO uploads (id, account_id, filename, columns, row_count, size_bytes, sha256, hook)
             VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, true)
             RETURNING ${COLUMNS}`,
            [upload.id, upload.accountId, upload.filename, JSON.stringify(upload.columns), upload.rowCount, upload.sizeBytes, upload.sha256]
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
    async listBySha256(accountId, sha256, page) {
        const rows = await prepared<UploadRow & { keyset_at: string }>(
            db,
            'flowctl_uploads_listBySha256',
            `SELECT ${COLUMNS}, ${KEYSET_COLUMN} FROM uploads WHERE account_id = $1 AND sha256 = $5 AND ${afterKeyset('$2', '$3')} ${KEYSET_ORDER} LIMIT $4`,
            [accountId, ...keysetParams(page), sha256]
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
