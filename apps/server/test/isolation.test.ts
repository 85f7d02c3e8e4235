import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { readsUpload, uploadCsv } from './upload-fixtures.js';

describe("one account cannot see or touch another's uploads and workflows", () => {
    let t: TestServer;
    let owner: TestAccount;
    let intruder: TestAccount;
    let uploadId: string;
    let workflowId: string;
    beforeAll(async () => {
        t = await startTestServer();
        owner = await createAccount(t);
        intruder = await createAccount(t);
        uploadId = (await uploadCsv(t, owner, 'name,email\nAda,ada@example.test\n')).json.uploadId;
        workflowId = (await t.request({ method: 'POST', url: '/api/workflows', headers: owner.headers, payload: { name: 'Mine', graph: readsUpload(uploadId) } })).json
            .workflowId;
    });
    afterAll(() => t.close());

    const as = (who: TestAccount, method: string, url: string, payload?: object) =>
        t.request({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

    it("answers 404, never 403, to another account's workflow for get, patch and delete", async () => {
        for (const [method, payload] of [
            ['GET', undefined],
            ['PATCH', { name: 'Taken over' }],
            ['DELETE', undefined]
        ] as const) {
            const res = await as(intruder, method, `/api/workflows/${workflowId}`, payload);
            expect(res.statusCode).toBe(404);
            expect(res.json).toEqual({ statusCode: 404, error: 'Not Found', message: `Workflow '${workflowId}' not found` });
        }
    });

    it("answers 404 to another account's upload for get and delete", async () => {
        for (const method of ['GET', 'DELETE']) {
            const res = await as(intruder, method, `/api/uploads/${uploadId}`);
            expect(res.statusCode).toBe(404);
        }

        await expect(t.app.services.uploads.readUploadRows(intruder.accountId, uploadId)).rejects.toMatchObject({ output: { statusCode: 404 } });
    });

    it('leaves them out of the other account’s lists', async () => {
        expect((await as(intruder, 'GET', '/api/workflows')).json).toEqual([]);
        expect((await as(intruder, 'GET', '/api/uploads')).json).toEqual([]);
    });

    it("refuses another account's upload in a graph", async () => {
        const res = await as(intruder, 'POST', '/api/workflows', { name: 'Borrowing', graph: readsUpload(uploadId) });
        expect(res.statusCode).toBe(400);
        expect(res.json.details).toEqual([{ path: 'graph.nodes[1].data.uploadId', message: expect.stringContaining(`upload '${uploadId}' not found`) }]);
    });

    it('keeps the owner’s workflow and upload intact after those attempts', async () => {
        const workflow = await as(owner, 'GET', `/api/workflows/${workflowId}`);
        expect(workflow.json).toMatchObject({ id: workflowId, name: 'Mine', graph: readsUpload(uploadId) });
        expect((await as(owner, 'GET', '/api/uploads')).json.map((u: { uploadId: string }) => u.uploadId)).toEqual([uploadId]);
        expect(await t.app.services.uploads.readUploadRows(owner.accountId, uploadId)).toEqual([{ name: 'Ada', email: 'ada@example.test' }]);
    });
});
