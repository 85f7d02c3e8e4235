import Crypto from 'node:crypto';
import Fs from 'node:fs';
import FsP from 'node:fs/promises';
import Path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import type { Config } from '../config.js';
import type { Db } from './db.js';

/** Opaque bytes by key (an upload id). Metadata lives in the uploads table, never here. */
export interface BlobStore {
    /** Stores all of `source` under `key`, or nothing: a failed or interrupted put leaves no blob behind. */
    put(key: string, source: Readable): Promise<{ bytes: number }>;
    /** The bytes under `key`. A missing blob makes the stream fail with an error whose code is 'ENOENT'. */
    get(key: string): Readable;
    /** Removes the blob; a missing one is not an error. */
    delete(key: string): Promise<void>;
    /** Keys of the blobs stored before `cutoff` (epoch ms). */
    keysStoredBefore(cutoff: number): Promise<string[]>;
}

/** Chunk size in upload_chunks: big enough that a 50 MiB file is 50 statements, small enough to stream. */
export const PG_CHUNK_BYTES = 1024 * 1024;

// Partial files older than this were left by a crashed process, not by an upload still in flight.
const STALE_PARTIAL_MS = 60 * 60 * 1000;

// Keys become file names: nothing that could climb out of the directory.
const KEY = /^[\w-]{1,128}$/;

const assertKey = (key: string): void => {
    if (!KEY.test(key)) {
        throw new Error(`Invalid blob key '${key}'`);
    }
};

const notFound = (key: string): Error => Object.assign(new Error(`No blob stored under '${key}'`), { code: 'ENOENT' });

const countBytes = (onChunk: (bytes: number) => void) =>
    async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
        for await (const chunk of source) {
            onChunk(chunk.length);
            yield chunk;
        }
    };

/**
 * One file per blob under `dir`. Bytes are written to `dir/.partial/` and renamed into place once
 * complete and flushed, so a crash or a rejected upload never leaves a half file under a real key.
 */
export const createFileBlobStore = (dir: string): BlobStore => {
    const partialDir = Path.join(dir, '.partial');
    let ready: Promise<void> | null = null;

    const sweep = async (): Promise<void> => {
        await FsP.mkdir(partialDir, { recursive: true });
        const now = Date.now();
        for (const name of await FsP.readdir(partialDir)) {
            const file = Path.join(partialDir, name);
            const stat = await FsP.stat(file).catch(() => null);
            if (stat && now - stat.mtimeMs > STALE_PARTIAL_MS) {
                await FsP.rm(file, { force: true });
            }
        }
    };

    const pathOf = (key: string): string => {
        assertKey(key);
        return Path.join(dir, key);
    };

    return {
        async put(key, source) {
            const target = pathOf(key);
            ready ??= sweep().catch((err) => {
                ready = null;
                throw err;
            });
            await ready;

            const partial = Path.join(partialDir, `${key}.${Crypto.randomBytes(6).toString('hex')}`);
            // Opened before any byte flows: a stream opening its file lazily could create it after a
            // failure's clean-up had already run.
            const handle = await FsP.open(partial, 'wx');
            let bytes = 0;
            try {
                await pipeline(
                    source,
                    countBytes((n) => {
                        bytes += n;
                    }),
                    handle.createWriteStream({ flush: true })
                );
                await FsP.rename(partial, target);
            } catch (err) {
                await handle.close().catch(() => {});
                await FsP.rm(partial, { force: true });
                throw err;
            }

            return { bytes };
        },
        get(key) {
            return Fs.createReadStream(pathOf(key));
        },
        async delete(key) {
            await FsP.rm(pathOf(key), { force: true });
        },
        async keysStoredBefore(cutoff) {
            const entries = await FsP.readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
                if (err.code === 'ENOENT') {
                    return [];
                }

                throw err;
            });
            const keys = [];
            for (const entry of entries) {
                if (entry.isFile() && KEY.test(entry.name)) {
                    const stat = await FsP.stat(Path.join(dir, entry.name)).catch(() => null);
                    if (stat && stat.mtimeMs < cutoff) {
                        keys.push(entry.name);
                    }
                }
            }

            return keys;
        }
    };
};

/** Cuts a byte stream into pieces of exactly `size` bytes (the last one shorter). */
async function* rechunk(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
    let pending: Buffer[] = [];
    let length = 0;
    for await (const chunk of source) {
        pending.push(chunk);
        length += chunk.length;
        if (length >= size) {
            let joined = Buffer.concat(pending, length);
            while (joined.length >= size) {
                yield joined.subarray(0, size);
                joined = joined.subarray(size);
            }

            pending = joined.length > 0 ? [joined] : [];
            length = joined.length;
        }
    }

    if (length > 0) {
        yield Buffer.concat(pending, length);
    }
}

/**
 * Blobs as numbered 1 MiB rows of upload_chunks, so every machine sharing DATABASE_URL sees every
 * upload. Each chunk is a statement of its own, not one transaction around the whole body: that held
 * a pool connection for as long as the client took to send (a byte every few seconds is not a body
 * that stopped), and ten slow uploads took every connection, every other request answered 503. A put
 * that fails removes what it wrote; one whose process died is an orphan, removed after an hour
 * (services/uploads.ts): nothing refers to a blob before its put returns.
 */
export const createPgBlobStore = (db: Db): BlobStore => ({
    async put(key, source) {
        assertKey(key);
        let bytes = 0;
        let seq = 0;
        try {
            for await (const chunk of rechunk(source, PG_CHUNK_BYTES)) {
                await db.query('INSERT INTO upload_chunks (upload_id, seq, data) VALUES ($1, $2, $3)', [key, seq, chunk]);
                seq += 1;
                bytes += chunk.length;
            }

            // An empty blob still gets chunk 0, so that "no chunk 0" always means "no such blob".
            if (seq === 0) {
                await db.query(`INSERT INTO upload_chunks (upload_id, seq, data) VALUES ($1, 0, ''::bytea)`, [key]);
            }
        } catch (err) {
            await db.query('DELETE FROM upload_chunks WHERE upload_id = $1', [key]).catch(() => {});
            throw err;
        }

        return { bytes };
    },
    get(key) {
        assertKey(key);
        async function* chunks(): AsyncGenerator<Buffer> {
            // One chunk per statement: memory stays at one chunk however large the blob.
            for (let seq = 0; ; seq++) {
                const row = await db.one<{ data: Buffer }>('SELECT data FROM upload_chunks WHERE upload_id = $1 AND seq = $2', [key, seq]);
                if (!row) {
                    if (seq === 0) {
                        throw notFound(key);
                    }

                    return;
                }

                if (row.data.length > 0) {
                    yield row.data;
                }
            }
        }

        return Readable.from(chunks(), { objectMode: false });
    },
    async delete(key) {
        assertKey(key);
        await db.query('DELETE FROM upload_chunks WHERE upload_id = $1', [key]);
    },
    async keysStoredBefore(cutoff) {
        const rows = await db.query<{ upload_id: string }>('SELECT upload_id FROM upload_chunks WHERE seq = 0 AND created_at < to_timestamp($1 / 1000.0)', [cutoff]);
        return rows.map((row) => row.upload_id);
    }
});

export const createBlobStore = (config: Config, db: Db): BlobStore => {
    if (config.blobStore === 'postgres') {
        if (!config.databaseUrl) {
            throw new Error('BLOB_STORE=postgres needs DATABASE_URL: with the embedded database, uploads are kept as files');
        }

        return createPgBlobStore(db);
    }

    return createFileBlobStore(Path.join(config.dataDir, 'uploads'));
};
