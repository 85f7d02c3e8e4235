import { afterAll, describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { readsUpload, uploadCsv } from './upload-fixtures.js';

describe('uploads and workflows survive a restart', () => {
    let first: TestServer | null = null;
    let second: TestServer | null = null;
    afterAll(async () => {
        await second?.close();
        await first?.testStore.drop();
    });

    it('finds the upload and the workflow again, and reads the rows back', async () => {
        first = await startTestServer();
        const account = await createAccount(first);
        const upload = await uploadCsv(first, account, 'name,score\nAda,9.5\nBob,7\n');
        const workflow = await first.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: 'Kept', graph: readsUpload(upload.json.uploadId) } });
        expect(workflow.statusCode).toBe(201);

        await first.app.stop();
        await first.smtp.close();
        second = await startTestServer({ testStore: first.testStore });

        const uploads = await second.request({ method: 'GET', url: '/api/uploads', headers: account.headers });
        expect(uploads.json).toEqual([upload.json]);
        const got = await second.request({ method: 'GET', url: `/api/workflows/${workflow.json.workflowId}`, headers: account.headers });
        expect(got.statusCode).toBe(200);
        expect(got.json).toMatchObject({ name: 'Kept', graph: readsUpload(upload.json.uploadId), createdAt: workflow.json.createdAt });
        expect(await second.app.services.uploads.readUploadRows(account.accountId, upload.json.uploadId)).toEqual([
            { name: 'Ada', score: 9.5 },
            { name: 'Bob', score: 7 }
        ]);
    });
});
