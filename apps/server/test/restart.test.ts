import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';

import Pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';

import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createAccount } from './fixtures.js';
import { startTestServer, store, type TestServer, type TestStore } from './harness.js';
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

// Every other suite starts from a copy of an initialized database; only here does a server create one
// (initdb, in a child process) on an empty data directory.
if (store === 'embedded') {
    describe('the embedded store on an empty data directory', () => {
        const dataDirs: string[] = [];
        const emptyDataDir = async () => {
            const dataDir = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-empty-'));
            dataDirs.push(dataDir);
            return dataDir;
        };
        let servers: TestServer[] = [];
        afterAll(async () => {
            await Promise.all(servers.map((server) => server.close()));
            await Promise.all(dataDirs.map((dir) => Fs.rm(dir, { recursive: true, force: true })));
        });

        it('creates the database, restarts on it and keeps the data', async () => {
            const dataDir = await emptyDataDir();
            // What an interrupted first start may leave: a half-made database beside an empty directory.
            await Fs.mkdir(Path.join(dataDir, 'pg'));
            await Fs.mkdir(Path.join(dataDir, 'pg.initdb'));
            await Fs.writeFile(Path.join(dataDir, 'pg.initdb', 'PG_VERSION'), '17\n');
            const testStore: TestStore = { dataDir, databaseUrl: null, drop: async () => {} };

            const first = await startTestServer({ testStore });
            servers.push(first);
            const account = await createAccount(first);
            const graph = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
            const created = await first.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: 'First', graph } });
            expect(created.statusCode).toBe(201);
            await first.close();
            servers = [];
            expect(await Fs.readdir(dataDir)).not.toContain('pg.initdb');

            const second = await startTestServer({ testStore });
            servers.push(second);
            const got = await second.request({ method: 'GET', url: `/api/workflows/${created.json.workflowId}`, headers: account.headers });
            expect(got.statusCode).toBe(200);
            expect(got.json).toMatchObject({ name: 'First', graph });
        });

        it('refuses a pg directory that holds files but no database, and leaves the files alone', async () => {
            const dataDir = await emptyDataDir();
            await Fs.mkdir(Path.join(dataDir, 'pg'));
            await Fs.writeFile(Path.join(dataDir, 'pg', 'notes.txt'), 'mine');

            const config = loadConfig({ FLOWCTL_DATA_DIR: dataDir, PORT: '0' });
            await expect(createApp(config, { logger: Pino({ level: 'silent' }) })).rejects.toThrow(`${Path.join(dataDir, 'pg')} holds files but no database`);
            expect(await Fs.readFile(Path.join(dataDir, 'pg', 'notes.txt'), 'utf8')).toBe('mine');
        });
    });
}
