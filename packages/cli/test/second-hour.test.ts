// Issue 33 §2: the CLI as gh and kubectl users type it, and what it says back.
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EXAMPLES, flowctl, freshHome, type Server, signUp, startServer } from './harness.js';

let server: Server;
let home: string;
const env = () => ({ FLOWCTL_API_URL: server.url });

beforeAll(async () => {
    server = await startServer();
    home = freshHome();
    await signUp(server, home);
    expect((await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows')], { home, env: env() })).code).toBe(0);
    expect((await flowctl(['run', 'Newsletter to subscribers over 30', '--watch'], { home, env: env() })).code).toBe(0);
    expect((await flowctl(['run', 'Meetup head count for staff', '--watch'], { home, env: env() })).code).toBe(0);
});

afterAll(async () => {
    await server?.close();
});

describe('flowctl runs list without a workflow', () => {
    it("lists the account's recent runs across workflows: workflow, trigger, duration, e-mails", async () => {
        const listed = await flowctl(['runs', 'list'], { home, env: env() });
        expect(listed.code, listed.stderr).toBe(0);
        const [header, first, second] = listed.stdout.trim().split('\n');
        expect(header).toMatch(/^RUN\s+WORKFLOW\s+STATUS\s+TRIGGER\s+DURATION\s+E-MAILS\s+CREATED$/);
        expect(first).toMatch(/^run_\w+\s+Meetup head count for staff\s+SUCCESS\s+manual\s+\S+\s+2\s+\S+$/);
        expect(second).toMatch(/^run_\w+\s+Newsletter to subscribers over 30\s+SUCCESS\s+manual\s+\S+\s+3\s+\S+$/);
    });

    it('-o json and -o yaml print the same document --json does; runs get -o json too', async () => {
        const json = await flowctl(['--json', 'runs', 'list'], { home, env: env() });
        const dashO = await flowctl(['runs', 'list', '-o', 'json'], { home, env: env() });
        expect(dashO.json).toEqual(json.json);
        expect(json.json.map((r: { workflowName: string }) => r.workflowName)).toEqual(['Meetup head count for staff', 'Newsletter to subscribers over 30']);
        const yaml = await flowctl(['runs', 'list', '-o', 'yaml'], { home, env: env() });
        expect(yaml.code, yaml.stderr).toBe(0);
        expect(yaml.stdout).toMatch(/^- runId: run_\w+\n {2}workflowId: wf_\w+\n {2}workflowName: Meetup head count for staff\n/);
        const one = await flowctl(['runs', 'get', json.json[0].runId, '-o', 'json'], { home, env: env() });
        expect(one.json).toMatchObject({ runId: json.json[0].runId, status: 'SUCCESS' });
    });
});

describe('wording', () => {
    it('1 row, not 1 rows', async () => {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-one-'));
        Fs.writeFileSync(Path.join(dir, 'one.csv'), 'name,email\nAda,ada@example.com\n');
        const uploaded = await flowctl(['upload', Path.join(dir, 'one.csv')], { home, env: env() });
        expect(uploaded.stdout).toContain('one.csv: 1 row, columns name, email');
    });

    it('run wf_doesnotexist says no workflow has that id', async () => {
        const result = await flowctl(['run', 'wf_doesnotexist'], { home, env: env() });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain("no workflow has the id 'wf_doesnotexist'");
        expect(result.stderr).toContain('flowctl workflows list');
    });

    it('settings get is a table, and says when the server’s own AI key is in use', async () => {
        const plain = await flowctl(['settings', 'get'], { home, env: env() });
        expect(plain.code, plain.stderr).toBe(0);
        expect(plain.stdout).not.toContain('{');
        expect(plain.stdout).toMatch(/^AI key\s+none: AI nodes fail until you set one/m);
        expect(plain.stdout).toMatch(/^AI model\s+the server's default$/m);

        const keyed = await startServer({ ai: { apiKey: 'sk-server-0123456789', baseUrl: null, model: null } });
        try {
            const other = freshHome();
            await signUp(keyed, other);
            const shown = await flowctl(['settings', 'get'], { home: other, env: { FLOWCTL_API_URL: keyed.url } });
            expect(shown.stdout).toMatch(/^AI key\s+the server's own \(its OPENAI_API_KEY\)/m);
        } finally {
            await keyed.close();
        }
    });

    it('a 503 for a server not set up is not called a failure of the server', async () => {
        const result = await flowctl(['google', 'connect', '--no-browser'], { home, env: env() });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('Google is not configured on this server');
        expect(result.stderr).not.toContain('the server failed');
        expect(result.stderr).toContain('is not set up for this');
    });

    it('--profile nobody suggests flowctl login --profile nobody', async () => {
        const result = await flowctl(['--profile', 'nobody', 'whoami'], { home, env: env() });
        expect(result.code).toBe(3);
        expect(result.stderr).toContain('flowctl login --profile nobody');
    });

    it('keeps the address given to login --api-url for the later commands of that profile', async () => {
        const { email, password } = await signUp(server, freshHome());
        const laptop = freshHome();
        const login = await flowctl(['login', '--api-url', server.url, '--email', email, '--password-stdin'], { home: laptop, input: `${password}\n` });
        expect(login.code, login.stderr).toBe(0);
        const whoami = await flowctl(['whoami'], { home: laptop });
        expect(whoami.code, whoami.stderr).toBe(0);
        expect(whoami.stdout).toContain(email);
    });
});
