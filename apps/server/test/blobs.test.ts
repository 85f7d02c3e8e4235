import Crypto from 'node:crypto';
import Fs from 'node:fs/promises';
import Net from 'node:net';
import Path from 'node:path';
import { Readable } from 'node:stream';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { loadConfig } from '../src/config.js';
import { type BlobStore, createFileBlobStore, createPgBlobStore, PG_CHUNK_BYTES } from '../src/store/blobs.js';
import { createAccount } from './fixtures.js';
import { startTestServer, store, type TestServer } from './harness.js';
import { storedBlobFiles, uploadCsv } from './upload-fixtures.js';

const readAll = async (stream: Readable): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) {
        chunks.push(chunk as Buffer);
    }

    return Buffer.concat(chunks);
};

/** `bytes` random bytes in uneven pieces, like a network would deliver them. */
const pieces = (bytes: Buffer): Readable => {
    const parts: Buffer[] = [];
    for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7 + 13) % 100_000) {
        parts.push(bytes.subarray(at, at + size));
    }

    return Readable.from(parts);
};

/** A source that fails after `good` bytes, like a client that disconnects. */
const failingAfter = (good: Buffer): Readable =>
    Readable.from(
        (async function* () {
            yield good;
            throw new Error('client went away');
        })()
    );

const HOUR = 60 * 60 * 1000;

/** Makes a blob look `ms` older: its file's mtime, or its chunks' created_at when `filesDir` is null. */
const backdateBlob = async (t: TestServer, filesDir: string | null, key: string, ms: number): Promise<void> => {
    if (filesDir === null) {
        await t.app.ctx.db.query(`UPDATE upload_chunks SET created_at = created_at - $2 * interval '1 millisecond' WHERE upload_id = $1`, [key, ms]);
    } else {
        const then = new Date(Date.now() - ms);
        await Fs.utimes(Path.join(filesDir, key), then, then);
    }
};

/** An owned upload and two orphans, one of them too young to be touched: only the old orphan goes. */
const checkOrphanSweep = async (t: TestServer, filesDir: string | null) => {
    const account = await createAccount(t);
    const owned = (await uploadCsv(t, account, 'a\n1\n')).json.uploadId;
    const orphan = `orphan_${Crypto.randomBytes(4).toString('hex')}`;
    const youngOrphan = `${orphan}_young`;
    await t.app.ctx.blobs.put(orphan, Readable.from([Buffer.from('a\n')]));
    await t.app.ctx.blobs.put(youngOrphan, Readable.from([Buffer.from('a\n')]));
    await backdateBlob(t, filesDir, owned, 2 * HOUR);
    await backdateBlob(t, filesDir, orphan, 2 * HOUR);

    expect(await t.app.services.uploads.sweepOrphanBlobs()).toBe(1);
    await expect(readAll(t.app.ctx.blobs.get(orphan))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readAll(t.app.ctx.blobs.get(youngOrphan))).toString()).toBe('a\n');
    expect(await t.app.services.uploads.readUploadRows(account.accountId, owned)).toEqual([{ a: 1 }]);
};

describe('blob stores', () => {
    let t: TestServer;
    let stores: Record<'files' | 'postgres', BlobStore>;
    let filesDir: string;
    beforeAll(async () => {
        t = await startTestServer();
        filesDir = Path.join(t.config.dataDir, 'blob-contract');
        stores = { files: createFileBlobStore(filesDir), postgres: createPgBlobStore(t.app.ctx.db) };
    });
    afterAll(() => t.close());

    /** Whatever the store holds for `key`, by its own means, partial leftovers included. */
    const leftovers = async (kind: 'files' | 'postgres', key: string): Promise<number> => {
        if (kind === 'postgres') {
            return (await t.app.ctx.db.query('SELECT seq FROM upload_chunks WHERE upload_id = $1', [key])).length;
        }

        const names = await Fs.readdir(filesDir, { recursive: true }).catch(() => [] as string[]);
        return names.filter((name) => name.includes(key)).length;
    };

    const backdate = (kind: 'files' | 'postgres', key: string, ms: number) => backdateBlob(t, kind === 'files' ? filesDir : null, key, ms);

    describe.each(['files', 'postgres'] as const)('%s', (kind) => {
        it('round-trips a multi-chunk blob byte for byte', async () => {
            const key = `blob_${kind}_big`;
            const bytes = Crypto.randomBytes(PG_CHUNK_BYTES * 2 + PG_CHUNK_BYTES / 2 + 123);
            expect(await stores[kind].put(key, pieces(bytes))).toEqual({ bytes: bytes.length });
            expect((await readAll(stores[kind].get(key))).equals(bytes)).toBe(true);
            if (kind === 'postgres') {
                expect(await leftovers(kind, key)).toBe(3);
            }
        });

        it('round-trips an empty blob', async () => {
            const key = `blob_${kind}_empty`;
            expect(await stores[kind].put(key, Readable.from([]))).toEqual({ bytes: 0 });
            expect((await readAll(stores[kind].get(key))).length).toBe(0);
        });

        it('keeps nothing when the source fails at once or part-way', async () => {
            for (const size of [0, 10, PG_CHUNK_BYTES + 10]) {
                const key = `blob_${kind}_failed_${size}`;
                await expect(stores[kind].put(key, failingAfter(Crypto.randomBytes(size)))).rejects.toThrow('client went away');
                expect(await leftovers(kind, key)).toBe(0);
                await expect(readAll(stores[kind].get(key))).rejects.toMatchObject({ code: 'ENOENT' });
            }
        });

        it('deletes, and a second delete is not an error', async () => {
            const key = `blob_${kind}_deleted`;
            await stores[kind].put(key, Readable.from([Buffer.from('a,b\n')]));
            await stores[kind].delete(key);
            await stores[kind].delete(key);
            expect(await leftovers(kind, key)).toBe(0);
            await expect(readAll(stores[kind].get(key))).rejects.toMatchObject({ code: 'ENOENT' });
        });

        it('lists the keys stored before a time', async () => {
            const old = `blob_${kind}_old`;
            const young = `blob_${kind}_young`;
            await stores[kind].put(old, Readable.from([Buffer.from('a\n')]));
            await stores[kind].put(young, Readable.from([Buffer.from('a\n')]));
            await backdate(kind, old, 2 * HOUR);

            const keys = await stores[kind].keysStoredBefore(Date.now() - HOUR);
            expect(keys).toContain(old);
            expect(keys).not.toContain(young);
        });

        it('refuses keys that could name another path', async () => {
            await expect(stores[kind].put('../escape', Readable.from([]))).rejects.toThrow("Invalid blob key '../escape'");
        });
    });
});

describe('orphan upload bytes', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('are removed when older than an hour and owned by no upload', () => checkOrphanSweep(t, Path.join(t.config.dataDir, 'uploads')));
});

describe('BLOB_STORE configuration', () => {
    it('defaults to files and allows postgres only with DATABASE_URL', () => {
        expect(loadConfig({}).blobStore).toBe('files');
        expect(loadConfig({ BLOB_STORE: 'postgres', DATABASE_URL: 'postgres://db.example.test/flowctl' }).blobStore).toBe('postgres');
        expect(() => loadConfig({ BLOB_STORE: 'postgres' })).toThrow('BLOB_STORE=postgres needs DATABASE_URL');
        expect(() => loadConfig({ BLOB_STORE: 's3' })).toThrow("BLOB_STORE must be 'files' or 'postgres', got 's3'");
    });
});

// Only a real PostgreSQL server can be shared by several machines, so only there is BLOB_STORE=postgres allowed.
if (store === 'postgres') {
    describe('uploads with BLOB_STORE=postgres', () => {
        let t: TestServer;
        beforeAll(async () => {
            t = await startTestServer({ config: { blobStore: 'postgres' } });
        });
        afterAll(() => t.close());

        it('keeps upload bytes in upload_chunks, not in the data directory, and reads them back', async () => {
            const account = await createAccount(t);
            const lines = ['id,name'];
            for (let i = 0; i < 150_000; i++) {
                lines.push(`${i},name ${i}`);
            }

            const res = await uploadCsv(t, account, `${lines.join('\n')}\n`);
            expect(res.status).toBe(201);
            expect(res.json.sizeBytes).toBeGreaterThan(PG_CHUNK_BYTES * 2);
            expect(await storedBlobFiles(t)).toEqual([]);
            const chunks = await t.app.ctx.db.query('SELECT seq FROM upload_chunks WHERE upload_id = $1', [res.json.uploadId]);
            expect(chunks.length).toBe(Math.ceil(res.json.sizeBytes / PG_CHUNK_BYTES));

            const rows = await t.app.services.uploads.readUploadRows(account.accountId, res.json.uploadId);
            expect(rows).toHaveLength(150_000);
            expect(rows[149_999]).toEqual({ id: 149_999, name: 'name 149999' });

            const rejected = await uploadCsv(t, account, 'a,b\n1\n');
            expect(rejected.status).toBe(400);
            expect((await t.app.ctx.db.query('SELECT DISTINCT upload_id FROM upload_chunks')).length).toBe(1);
        });

        it('removes chunks older than an hour that no upload owns', () => checkOrphanSweep(t, null));

        it('holds no database connection while an upload body trickles in: more of them than the pool has, and others are still served', async () => {
            const account = await createAccount(t);
            const other = await createAccount(t);
            const url = new URL(t.url);
            const { blobs } = t.app.ctx;
            const put = blobs.put;
            let started = 0;
            blobs.put = (key, source) => {
                started++;
                return put.call(blobs, key, source);
            };
            const boundary = 'flowctl-trickle';
            const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\nContent-Type: text/csv\r\n\r\nid,name\n`;
            // The pool has 10 connections; a byte every 200 ms is a body that is still arriving.
            const sockets = Array.from({ length: 12 }, () => {
                const socket = Net.connect({ host: url.hostname, port: Number(url.port) });
                socket.on('error', () => {});
                socket.write(
                    `POST /api/uploads HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${account.headers.authorization}\r\n` +
                        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n${head}`
                );
                return socket;
            });
            const trickle = setInterval(() => {
                for (const socket of sockets) {
                    socket.write('1');
                }
            }, 200);
            try {
                // Every upload has reached the store (a transaction around the body took its connection there).
                await vi.waitFor(() => expect(started).toBe(sockets.length), { timeout: 30_000, interval: 20 });
                await new Promise((resolve) => setTimeout(resolve, 200));
                const me = await t.request({ method: 'GET', url: '/api/auth/me', headers: other.headers });
                expect(me.statusCode, me.payload).toBe(200);
            } finally {
                clearInterval(trickle);
                for (const socket of sockets) {
                    socket.destroy();
                }

                blobs.put = put;
            }
        });
    });
}
