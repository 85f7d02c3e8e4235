import Crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline, Transform } from 'node:stream';

import Boom from '@hapi/boom';
import type { Row } from '@flowctl/engine';

import type { Context } from '../context.js';
import { newId } from '../ids.js';
import { deleteUnusedHookUploads } from '../store/retention.js';
import { unfinishedRunsReadingUpload } from '../store/runs.js';
import { type UploadRecord, uploadsStore } from '../store/uploads.js';
import { workflowsStore } from '../store/workflows.js';
import { CsvInspector, iterateCsvRows, readCsvRows } from './csv.js';
import { PaceChunks } from './csv-pace.js';
import { type ListPage, type ListQuery, pageOut, pageRequest } from './paging.js';
import { shownFilename, uploadFilename } from './upload-filename.js';

/** What the API shows of an upload. */
export interface UploadView {
    uploadId: string;
    filename: string;
    rows: number;
    columns: string[];
    sizeBytes: number;
    /** Hex SHA-256 of the bytes; null for uploads stored before the server kept it. */
    sha256: string | null;
    createdAt: string;
}

/** An upload, and whether this request created it or found it already stored. */
export interface CreatedUpload {
    upload: UploadView;
    created: boolean;
}

export interface IncomingFile {
    /** As the client named it; null when it gave none. */
    filename: string | null;
    body: Readable;
    /**
     * Rows posted to a hook: stored for the runs they start only (never matched to another upload,
     * deleted once no run names them). `generated` when the server wrote the CSV from a JSON body:
     * then the separator check, meant for files from spreadsheets, does not apply.
     */
    hook?: { generated: boolean };
}

export interface UploadsService {
    /**
     * Checks and stores a CSV while it streams in; on any problem nothing is kept. The same bytes under
     * the same name again answer the account's existing upload (`created` false) and keep no copy.
     */
    create(accountId: string, file: IncomingFile): Promise<CreatedUpload>;
    /** Newest first; `next` is the cursor of the next page. With `sha256`, only uploads of those bytes. */
    list(accountId: string, query: ListQuery & { sha256?: string }): Promise<ListPage<UploadView>>;
    get(accountId: string, uploadId: string): Promise<UploadView>;
    /** 409 while a workflow of the account, or a run not yet finished, reads the upload. */
    remove(accountId: string, uploadId: string): Promise<void>;
    /** Every data row, each cell typed (numbers, booleans, null, strings). For DATA_SOURCE nodes; `signal` stops reading. */
    readUploadRows(accountId: string, uploadId: string, signal?: AbortSignal): Promise<Row[]>;
    /** The same rows one at a time, read as they are used: for a page of a run's node output. */
    iterateUploadRows(accountId: string, uploadId: string): Promise<AsyncIterable<Row>>;
    /**
     * Removes stored bytes that no upload owns: left when a process died between storing an upload's
     * bytes and recording it, or when removing a deleted upload's bytes failed. Returns how many.
     */
    sweepOrphanBlobs(): Promise<number>;
    /** Deletes the hook uploads no run needs any more (store/retention.ts) with their bytes. Returns how many. */
    forgetUnusedHookUploads(): Promise<number>;
}

// Younger bytes may belong to an upload still being recorded, possibly by another process.
const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 1000;

export const toUploadView = (upload: UploadRecord): UploadView => ({
    uploadId: upload.id,
    filename: shownFilename(upload.filename),
    rows: upload.rowCount,
    columns: upload.columns,
    sizeBytes: upload.sizeBytes,
    sha256: upload.sha256,
    createdAt: upload.createdAt.toISOString()
});

const notFound = (uploadId: string): Boom.Boom => Boom.notFound(`Upload '${uploadId}' not found`);

export const createUploadsService = (ctx: Context): UploadsService => {
    const uploads = uploadsStore(ctx.db);
    const workflows = workflowsStore(ctx.db);
    const { blobs } = ctx;

    return {
        async create(accountId, file) {
            // Before a byte is read: a refused name costs no storage.
            const filename = uploadFilename(file.filename);
            const uploadId = newId('upl');
            const inspector = new CsvInspector({ checkSeparator: !file.hook?.generated });
            const hash = Crypto.createHash('sha256');
            const hashing = new Transform({
                transform(chunk: Buffer, _encoding, done) {
                    hash.update(chunk);
                    done(null, chunk);
                }
            });
            // A failure on any side reaches put() through the inspector, which then keeps nothing.
            // PaceChunks: the checks run on pieces of 16 KiB with pauses between them, whatever size of
            // chunk the body comes in (a hook's body is one buffer of up to the upload limit).
            pipeline(file.body, new PaceChunks(), hashing, inspector, () => {});
            const { bytes } = await blobs.put(uploadId, inspector);
            const summary = inspector.summary!;

            let stored: { upload: UploadRecord; created: boolean };
            try {
                const record = {
                    id: uploadId,
                    accountId,
                    filename,
                    columns: summary.columns,
                    rowCount: summary.rows,
                    sizeBytes: bytes,
                    sha256: hash.digest('hex')
                };
                stored = file.hook ? { upload: await uploads.insertHook(record), created: true } : await uploads.insert(record);
            } catch (err) {
                await blobs.delete(uploadId);
                throw err;
            }

            if (!stored.created) {
                // The account has these bytes under this name already: the copy just streamed is not needed.
                await blobs.delete(uploadId).catch((err: Error) => ctx.log.warn({ err, uploadId }, 'a duplicate upload’s bytes could not be removed'));
            }

            return { upload: toUploadView(stored.upload), created: stored.created };
        },
        async list(accountId, query) {
            const page = query.sha256 ? await uploads.listBySha256(accountId, query.sha256.toLowerCase(), pageRequest(query)) : await uploads.list(accountId, pageRequest(query));
            return pageOut({ ...page, items: page.items.map(toUploadView) });
        },
        async get(accountId, uploadId) {
            const upload = await uploads.find(accountId, uploadId);
            if (!upload) {
                throw notFound(uploadId);
            }

            return toUploadView(upload);
        },
        async remove(accountId, uploadId) {
            const users = await workflows.usingUpload(accountId, uploadId);
            if (users.length > 0) {
                const named = users.map((w) => `'${w.name}' (${w.id})`).join(', ');
                throw Boom.conflict(`Upload '${uploadId}' is read by workflow${users.length > 1 ? 's' : ''} ${named}: point their DATA_SOURCE nodes elsewhere or delete them first.`);
            }

            // A run keeps the graph it was enqueued with, which may read the upload after the workflow stopped.
            const runs = await unfinishedRunsReadingUpload(ctx.db, accountId, uploadId);
            if (runs.length > 0) {
                const named = runs.map((run) => `${run.id} (workflow ${run.workflow_id})`).join(', ');
                throw Boom.conflict(`Upload '${uploadId}' is read by unfinished run${runs.length > 1 ? 's' : ''} ${named}: wait for them to finish or cancel them first.`);
            }

            if (!(await uploads.delete(accountId, uploadId))) {
                throw notFound(uploadId);
            }

            // The row is gone, so the upload is gone for every reader; a failure here only leaves bytes behind.
            await blobs.delete(uploadId).catch((err: Error) => ctx.log.warn({ err, uploadId }, 'upload deleted but its bytes could not be removed'));
        },
        async readUploadRows(accountId, uploadId, signal) {
            const upload = await uploads.find(accountId, uploadId);
            if (!upload) {
                throw notFound(uploadId);
            }

            const bytes = blobs.get(uploadId);
            // A cancelled run stops reading at once rather than after the whole file.
            const stop = () => bytes.destroy(new Error('run cancelled'));
            signal?.addEventListener('abort', stop, { once: true });
            try {
                return await readCsvRows(bytes, upload.columns);
            } catch (err) {
                if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
                    throw Boom.internal(`The bytes of upload '${uploadId}' are missing from the ${ctx.config.blobStore} blob store`);
                }

                throw err;
            } finally {
                signal?.removeEventListener('abort', stop);
            }
        },
        async iterateUploadRows(accountId, uploadId) {
            const upload = await uploads.find(accountId, uploadId);
            if (!upload) {
                throw notFound(uploadId);
            }

            return iterateCsvRows(blobs.get(uploadId), upload.columns);
        },
        async sweepOrphanBlobs() {
            const keys = await blobs.keysStoredBefore(Date.now() - ORPHAN_GRACE_MS);
            let removed = 0;
            for (let start = 0; start < keys.length; start += SWEEP_BATCH) {
                const batch = keys.slice(start, start + SWEEP_BATCH);
                const owned = await uploads.existingInAnyAccount(batch);
                for (const key of batch.filter((k) => !owned.has(k))) {
                    await blobs.delete(key);
                    removed += 1;
                }
            }

            return removed;
        },
        async forgetUnusedHookUploads() {
            const ids = await deleteUnusedHookUploads(ctx.db);
            for (const uploadId of ids) {
                // The rows are gone; bytes left behind are found by sweepOrphanBlobs.
                await blobs.delete(uploadId).catch((err: Error) => ctx.log.warn({ err, uploadId }, 'hook upload deleted but its bytes could not be removed'));
            }

            return ids.length;
        }
    };
};
