// The built flowctl binary against a real server: upload file names, apply twice, and flowctl google.
import Fs from 'node:fs';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, googleConfig, startGoogleStub } from '../../../apps/server/test/google-stub.js';
import { EXAMPLES, failingWorkflow, flowctl, freshHome, type Server, signUp, startServer, workflowDir } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

describe('upload file names', () => {
    // Issue 26: a file name with an escape sequence or a bidi override is refused, and shown visibly
    // (never obeyed) in the refusal; a name stored so by an earlier version is listed visibly.
    it('refuses a name with ESC and a right-to-left override, showing both, and says to rename the file', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = Fs.mkdtempSync(Path.join(freshHome(), 'csv-'));
        const file = Path.join(dir, 'a\u001b[2J\u202Eexe.csv');
        Fs.writeFileSync(file, 'name\nAda\n');

        const refused = await flowctl(['upload', file], { home });
        expect(refused.code).toBe(2);
        expect(refused.stdout + refused.stderr).not.toMatch(/[\u001b\u202e]/);
        expect(refused.stderr).toContain(`cannot upload ${dir}/a^[[2J<U+202E>exe.csv`);
        expect(refused.stderr).toMatch(/name 'a<U\+001B>\[2J<U\+202E>exe\.csv' \('filename'.*U\+001B/);
        expect(refused.stderr).toContain('rename the file to plain text (mv -- <file> contacts.csv), then use the new name: flowctl upload <new name>');
        expect((await flowctl(['--json', 'uploads', 'list'], { home })).json).toEqual([]);
    });

    it('lists a name an earlier version stored with a bidi override visibly', async () => {
        const home = freshHome();
        await signUp(server, home);
        const uploaded = await flowctl(['--json', 'upload', Path.join(EXAMPLES, 'contacts.csv')], { home });
        await server.app.ctx.db.query('UPDATE uploads SET filename = $2 WHERE id = $1', [uploaded.json.uploadId, 'a[2J\u202Eexe.csv']);

        const listed = await flowctl(['uploads', 'list'], { home });
        expect(listed.code, listed.stderr).toBe(0);
        expect(listed.stdout).not.toContain('\u202E');
        expect(listed.stdout).toContain('a[2J<U+202E>exe.csv');
    });
});

describe('apply', () => {
    it('a second apply of unchanged files changes nothing and uploads nothing; an edit is an update; --dry-run writes nothing', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'bad.yaml': failingWorkflow });
        const first = await flowctl(['--json', 'apply', '-f', dir], { home });
        expect(first.json.workflows[0]).toMatchObject({ action: 'created', uploads: [{ action: 'uploaded' }] });
        const workflowId = first.json.workflows[0].workflowId;
        const before = (await flowctl(['--json', 'workflows', 'get', workflowId], { home })).json;

        const second = await flowctl(['apply', '-f', dir], { home });
        expect(second.code).toBe(0);
        expect(second.stdout).toContain('nothing to do: the workflow matches the server');
        expect((await flowctl(['--json', 'uploads', 'list'], { home })).json).toHaveLength(1);
        expect((await flowctl(['--json', 'workflows', 'get', workflowId], { home })).json.updatedAt).toBe(before.updatedAt);

        Fs.writeFileSync(Path.join(dir, 'bad.yaml'), failingWorkflow.replace('subject: Hi', 'subject: Hello again'));
        const dry = await flowctl(['--json', 'apply', '-f', dir, '--dry-run'], { home });
        expect(dry.json.workflows[0]).toMatchObject({ action: 'would update', changes: ['graph.nodes[2].data.subject'] });
        expect((await flowctl(['--json', 'workflows', 'get', workflowId], { home })).json.graph.nodes[2].data.subject).toBe('Hi');

        const updated = await flowctl(['--json', 'apply', '-f', dir], { home });
        expect(updated.json.workflows[0]).toMatchObject({ action: 'updated', workflowId });
        expect((await flowctl(['--json', 'workflows', 'get', workflowId], { home })).json.graph.nodes[2].data.subject).toBe('Hello again');

        const exported = await flowctl(['workflows', 'get', workflowId, '-o', 'yaml'], { home });
        Fs.writeFileSync(Path.join(dir, 'bad.yaml'), exported.stdout);
        expect((await flowctl(['--json', 'apply', '-f', dir], { home })).json.workflows[0].action).toBe('unchanged');
    });
});

describe('flowctl google', () => {
    it('connects through the consent URL it prints, shows the linked account, and disconnects', async () => {
        const stub = await startGoogleStub();
        const port = await freePort();
        const google = await startServer({ port, google: googleConfig(stub, `http://127.0.0.1:${port}/api/integrations/google/callback`) });
        try {
            const home = freshHome();
            await signUp(google, home);
            const connect = await flowctl(['--json', 'google', 'connect', '--no-browser'], { home });
            expect(connect.code, connect.stderr).toBe(0);
            expect(connect.json).toMatchObject({ opened: false, url: expect.stringContaining(`${stub.url}/o/oauth2/v2/auth?`) });

            // The user's browser: consent at the stand-in, then Google's redirect to the callback.
            const page = await fetch(stub.consent(connect.json.url));
            expect(await page.text()).toContain('Google account linked');

            expect((await flowctl(['--json', 'google', 'status'], { home })).json).toEqual({ connected: true, email: stub.email });
            const status = await flowctl(['google', 'status'], { home });
            expect(status.stdout).toContain(`linked to ${stub.email}`);
            expect((await flowctl(['google', 'disconnect'], { home })).code).toBe(0);
            expect((await flowctl(['--json', 'google', 'status'], { home })).json).toEqual({ connected: false });
        } finally {
            await google.close();
            await stub.close();
        }
    });
});
