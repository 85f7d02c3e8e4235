// Issue 33: the same file sent again by the same account answers the upload it already has, so
// `apply` of unchanged files from a fresh machine creates nothing; clients ask by hash without sending.
import Crypto from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { storedBlobFiles, uploadCsv } from './upload-fixtures.js';

const sha256 = (text: string) => Crypto.createHash('sha256').update(text).digest('hex');

describe('uploads recognised by content hash', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('answers 200 with the existing upload for the same bytes and name, keeping no second copy', async () => {
        const owner = await createAccount(t);
        const csv = 'name,email\nAda,ada@example.test\n';
        const first = await uploadCsv(t, owner, csv, { filename: 'people.csv' });
        expect(first.status).toBe(201);
        expect(first.json.sha256).toBe(sha256(csv));
        const blobs = await storedBlobFiles(t);

        const again = await uploadCsv(t, owner, csv, { filename: 'people.csv' });
        expect(again.status).toBe(200);
        expect(again.json).toEqual(first.json);
        expect(await storedBlobFiles(t)).toEqual(blobs);
        const list = await t.request({ method: 'GET', url: '/api/uploads', headers: owner.headers });
        expect(list.json.map((u: { uploadId: string }) => u.uploadId)).toEqual([first.json.uploadId]);
    });

    it('is a new upload for other bytes, another name, another account, or after a delete', async () => {
        const owner = await createAccount(t);
        const other = await createAccount(t);
        const csv = 'a\n1\n';
        const first = await uploadCsv(t, owner, csv, { filename: 'a.csv' });
        const changed = await uploadCsv(t, owner, 'a\n2\n', { filename: 'a.csv' });
        const renamed = await uploadCsv(t, owner, csv, { filename: 'b.csv' });
        const elsewhere = await uploadCsv(t, other, csv, { filename: 'a.csv' });
        for (const res of [first, changed, renamed, elsewhere]) {
            expect(res.status).toBe(201);
        }

        const ids = new Set([first, changed, renamed, elsewhere].map((res) => res.json.uploadId));
        expect(ids.size).toBe(4);

        expect((await t.request({ method: 'DELETE', url: `/api/uploads/${first.json.uploadId}`, headers: owner.headers })).statusCode).toBe(204);
        const afterDelete = await uploadCsv(t, owner, csv, { filename: 'a.csv' });
        expect(afterDelete.status).toBe(201);
        expect(afterDelete.json.uploadId).not.toBe(first.json.uploadId);
        expect(await storedBlobFiles(t)).toContain(afterDelete.json.uploadId);
    });

    it('two uploads of one file at once end as one upload', async () => {
        const owner = await createAccount(t);
        const csv = 'x,y\n1,2\n3,4\n';
        const both = await Promise.all([uploadCsv(t, owner, csv, { filename: 'race.csv' }), uploadCsv(t, owner, csv, { filename: 'race.csv' })]);
        expect(both.map((res) => res.status).sort()).toEqual([200, 201]);
        expect(both[0]!.json.uploadId).toBe(both[1]!.json.uploadId);
        expect(await storedBlobFiles(t)).toContain(both[0]!.json.uploadId);
        const list = await t.request({ method: 'GET', url: '/api/uploads', headers: owner.headers });
        expect(list.json).toHaveLength(1);
    });

    it('lists only the account’s uploads of a hash, without the bytes being sent', async () => {
        const owner = await createAccount(t);
        const other = await createAccount(t);
        const csv = 'k\nv\n';
        const mine = await uploadCsv(t, owner, csv, { filename: 'k.csv' });
        await uploadCsv(t, owner, 'k\nw\n', { filename: 'k.csv' });
        await uploadCsv(t, other, csv, { filename: 'k.csv' });

        const found = await t.request({ method: 'GET', url: `/api/uploads?sha256=${sha256(csv).toUpperCase()}`, headers: owner.headers });
        expect(found.statusCode).toBe(200);
        expect(found.json.map((u: { uploadId: string }) => u.uploadId)).toEqual([mine.json.uploadId]);

        const none = await t.request({ method: 'GET', url: `/api/uploads?sha256=${sha256('nothing')}`, headers: owner.headers });
        expect(none.json).toEqual([]);

        const bad = await t.request({ method: 'GET', url: '/api/uploads?sha256=abc', headers: owner.headers });
        expect(bad.statusCode).toBe(400);
        expect(bad.json.message).toContain("'sha256' must be 64 hexadecimal digits");
    });

    it('keeps the hash filter on the next page', async () => {
        const owner = await createAccount(t);
        const csv = 'p\n1\n';
        await uploadCsv(t, owner, csv, { filename: 'one.csv' });
        await uploadCsv(t, owner, csv, { filename: 'two.csv' });
        await uploadCsv(t, owner, 'p\n9\n', { filename: 'three.csv' });
        const first = await t.request({ method: 'GET', url: `/api/uploads?sha256=${sha256(csv)}&limit=1`, headers: owner.headers });
        expect(first.json).toHaveLength(1);
        const next = /<([^>]+)>; rel="next"/.exec(first.headers.link as string)![1]!;
        expect(next).toContain(`sha256=${sha256(csv)}`);
        const second = await t.request({ method: 'GET', url: next, headers: owner.headers });
        expect(second.json.map((u: { filename: string }) => u.filename)).toEqual(['one.csv']);
    });
});
