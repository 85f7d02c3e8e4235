// The built flowctl binary against a real server: the README quickstart with --json, every exit
// code, behaviour without a terminal, the credentials file, YAML errors, and apply twice.
import Fs from 'node:fs';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, googleConfig, startGoogleStub } from '../../../apps/server/test/google-stub.js';
import { credentialsOf, EXAMPLES, flowctl, freshHome, otpFor, type Server, signUp, startServer, workflowDir } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

const failingWorkflow = `name: Bad addresses
graph:
  nodes:
    - { id: start, type: TRIGGER, data: {} }
    - { id: contacts, type: DATA_SOURCE, data: { file: ./contacts.csv } }
    - id: send
      type: OUTPUT
      data: { forEach: "{{contacts.rows}}", to: "{{item.name}}", subject: Hi, body: Hello }
  edges:
    - { source: start, target: contacts }
    - { source: contacts, target: send }
`;

describe('the quickstart with --json', () => {
    it('registers, verifies with the e-mailed code, uploads, applies, runs and watches: one JSON document per step, e-mails delivered', async () => {
        const home = freshHome();
        const env = { FLOWCTL_API_URL: server.url };
        const email = `quick-${Date.now()}@example.test`;
        const json = async (args: string[], input?: string) => {
            const result = await flowctl(['--json', ...args], { home, env, ...(input ? { input } : {}) });
            expect(result.code, result.stderr).toBe(0);
            expect(() => JSON.parse(result.stdout), `stdout of ${args.join(' ')} is one JSON document`).not.toThrow();
            return result.json;
        };

        expect(await json(['register', '--email', email, '--full-name', 'Quick Start', '--password-stdin'], 'correct horse battery\n')).toMatchObject({ email });
        expect(await json(['verify', '--email', email, '--code', await otpFor(server.smtp, email)])).toMatchObject({ email, signedIn: true });
        expect((await json(['whoami'])).account.email).toBe(email);

        const upload = await json(['upload', Path.join(EXAMPLES, 'contacts.csv')]);
        expect(upload).toMatchObject({ filename: 'contacts.csv', rows: 5, columns: ['name', 'email', 'age', 'city', 'subscribed'] });

        const applied = await json(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'newsletter.yaml')]);
        expect(applied.workflows).toHaveLength(1);
        expect(applied.workflows[0]).toMatchObject({ name: 'Newsletter to subscribers over 30', action: 'created' });
        // The server has these bytes under this name from `flowctl upload`, so apply reused that upload instead of sending them again.
        expect(applied.workflows[0].uploads[0]).toMatchObject({ action: 'unchanged', uploadId: upload.uploadId });

        const before = server.smtp.messages.length;
        const run = await json(['run', 'Newsletter to subscribers over 30', '--watch']);
        expect(run).toMatchObject({ status: 'SUCCESS', result: { totalRows: 5, filteredOut: 2, emailsSent: 3 } });
        expect(run.nodes.map((node: { status: string }) => node.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
        const sent = await server.smtp.waitFor(before + 3);
        expect(sent.slice(before).flatMap((m) => m.to).sort()).toEqual(['ada@example.com', 'alan@example.com', 'margaret@example.com'].sort());
    });
});

describe('credentials', () => {
    it('are saved with mode 0600 in a 0700 folder, and a refreshed token pair is written back', async () => {
        const home = freshHome();
        await signUp(server, home);
        const file = Path.join(home, 'flowctl', 'credentials.json');
        expect(Fs.statSync(file).mode & 0o777).toBe(0o600);
        expect(Fs.statSync(Path.dirname(file)).mode & 0o777).toBe(0o700);

        // An access token the server refuses: the SDK refreshes once, and the CLI saves the new pair.
        const saved = credentialsOf(home);
        const stale = saved.profiles.default.refreshToken;
        saved.profiles.default.accessToken = 'not-a-valid-token';
        Fs.writeFileSync(file, JSON.stringify(saved), { mode: 0o600 });
        const whoami = await flowctl(['whoami'], { home });
        expect(whoami.code, whoami.stderr).toBe(0);
        const after = credentialsOf(home).profiles.default;
        expect(after.accessToken).not.toBe('not-a-valid-token');
        expect(after.refreshToken).not.toBe(stale);
        expect(Fs.statSync(file).mode & 0o777).toBe(0o600);
        expect((await flowctl(['whoami'], { home })).code).toBe(0);
    });

    it('keep profiles apart, and FLOWCTL_TOKEN with FLOWCTL_API_URL override them', async () => {
        const home = freshHome();
        const { email } = await signUp(server, home);
        const other = await flowctl(['whoami', '--profile', 'staging'], { home });
        expect(other.code).toBe(3);
        expect(other.stderr).toContain("not signed in (profile 'staging')");

        const bogus = await flowctl(['whoami'], { home, env: { FLOWCTL_TOKEN: 'flc_not_a_token', FLOWCTL_API_URL: server.url } });
        expect(bogus.code).toBe(3);
        expect(bogus.stderr).toContain('FLOWCTL_TOKEN');
        const mine = await flowctl(['whoami', '--json'], { home });
        expect(mine.json).toMatchObject({ credentials: 'profile', account: { email } });

        // logout forgets the tokens (and tells the server when it has a logout route); then exit 3.
        const out = await flowctl(['--json', 'logout'], { home });
        expect(out.json).toMatchObject({ signedOut: true });
        expect(credentialsOf(home).profiles.default).toEqual({ apiUrl: server.url, email });
        expect((await flowctl(['whoami'], { home })).code).toBe(3);
    });
});

describe('personal API tokens', () => {
    it('tokens create prints the token once; FLOWCTL_TOKEN signs in with it until tokens revoke', async () => {
        const home = freshHome();
        const { email } = await signUp(server, home);
        const created = await flowctl(['--json', 'tokens', 'create', '--name', 'ci'], { home });
        expect(created.code, created.stderr).toBe(0);
        expect(created.json.token).toMatch(/^flc_/);

        const ci = { FLOWCTL_TOKEN: created.json.token, FLOWCTL_API_URL: server.url };
        const whoami = await flowctl(['--json', 'whoami'], { home: freshHome(), env: ci });
        expect(whoami.json).toMatchObject({ credentials: 'FLOWCTL_TOKEN', account: { email } });
        const listed = await flowctl(['--json', 'tokens', 'list'], { home });
        expect(listed.json.map((t: { id: string }) => t.id)).toEqual([created.json.id]);
        expect(JSON.stringify(listed.json)).not.toContain(created.json.token);

        expect((await flowctl(['tokens', 'revoke', created.json.id], { home })).code).toBe(0);
        const revoked = await flowctl(['whoami'], { home: freshHome(), env: ci });
        expect(revoked.code).toBe(3);
        expect(revoked.stderr).toContain('flowctl tokens create');
    });
});

describe('exit codes', () => {
    it('0 on success, 2 for usage errors, 3 when not signed in, 1 when a request fails, 4 when --watch times out', async () => {
        const home = freshHome();
        const env = { FLOWCTL_API_URL: server.url };
        expect((await flowctl(['--version'], { home })).code).toBe(0);
        expect((await flowctl(['--help'], { home })).code).toBe(0);

        const unknown = await flowctl(['workflows', 'list', '--bogus'], { home });
        expect(unknown.code).toBe(2);
        expect(unknown.stderr).toContain("unknown option '--bogus'");
        expect((await flowctl(['run', 'x', '--timeout', '10 minutes', '--watch'], { home, env })).code).toBe(2);

        const anonymous = await flowctl(['workflows', 'list'], { home, env });
        expect(anonymous.code).toBe(3);
        expect(anonymous.stderr).toContain('flowctl login');
        const badLogin = await flowctl(['login', '--email', 'nobody@example.test', '--password-stdin'], { home, env, input: 'wrong password\n' });
        expect(badLogin.code).toBe(3);

        await signUp(server, home);
        const missing = await flowctl(['run', 'no such workflow'], { home });
        expect(missing.code).toBe(1);
        expect(missing.stderr).toContain("no workflow is named exactly 'no such workflow'");
        expect(missing.stderr).toContain('flowctl workflows list');
        const missingRun = await flowctl(['runs', 'get', 'run_doesnotexist'], { home });
        expect(missingRun.code).toBe(1);

        // This server has no Google OAuth client: connect says which variables the operator must set.
        expect((await flowctl(['--json', 'google', 'status'], { home })).json).toEqual({ connected: false });
        const noGoogle = await flowctl(['google', 'connect', '--no-browser'], { home });
        expect(noGoogle.code).toBe(1);
        expect(noGoogle.stderr).toContain('GOOGLE_CLIENT_ID');

        // (The saved sign-in is never sent to another server: logging in there is what reaches it.)
        const down = await flowctl(['login', '--email', 'nobody@example.test', '--password-stdin', '--api-url', 'http://127.0.0.1:9'], { home, input: 'correct horse battery\n' });
        expect(down.code).toBe(1);
        expect(down.stderr).toContain('cannot reach the flowctl server');

        expect((await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'newsletter.yaml')], { home })).code).toBe(0);
        const timedOut = await flowctl(['run', 'Newsletter to subscribers over 30', '--watch', '--timeout', '100ms'], { home });
        expect(timedOut.code).toBe(4);
        expect(timedOut.stderr).toMatch(/flowctl runs watch run_/);
    });

    it('1 when the watched run ends FAILED, with ::error:: lines under GitHub Actions', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'bad.yaml': failingWorkflow });
        expect((await flowctl(['apply', '-f', dir], { home })).code).toBe(0);

        const watched = await flowctl(['run', 'Bad addresses', '--watch'], { home, env: { GITHUB_ACTIONS: 'true' } });
        expect(watched.code).toBe(1);
        expect(watched.stdout).toMatch(/node send \(OUTPUT\): FAILED/);
        expect(watched.stdout).toMatch(/^::error title=flowctl run run_\w+ of Bad addresses ended FAILED::node send \(OUTPUT\) failed: /m);
        expect(watched.stderr).toMatch(/flowctl runs get run_/);

        const json = await flowctl(['run', 'Bad addresses', '--watch', '--json'], { home });
        expect(json.code).toBe(1);
        expect(json.json).toMatchObject({ status: 'FAILED' });

        // Rows with an invalid address are not retried: nothing is left, and the CLI says where to look.
        const retried = await flowctl(['runs', 'retry', json.json.runId], { home });
        expect(retried.code).toBe(1);
        expect(retried.stderr).toContain(`run ${json.json.runId} cannot be retried`);
        expect(retried.stderr).toContain(`flowctl runs get ${json.json.runId}`);
        expect((await flowctl(['runs', 'retry', 'run_doesnotexist'], { home })).stderr).toContain("run 'run_doesnotexist' not found");
    });
});

describe('runs deliveries', () => {
    it('lists who got what: tab-separated lines without a terminal, --json, --status; usage and unknown runs exit 2 and 1', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'bad.yaml': failingWorkflow });
        expect((await flowctl(['apply', '-f', dir], { home })).code).toBe(0);
        expect((await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'newsletter.yaml')], { home })).code).toBe(0);

        const good = (await flowctl(['run', 'Newsletter to subscribers over 30', '--watch', '--json'], { home })).json;
        const listed = await flowctl(['runs', 'deliveries', good.runId], { home });
        expect(listed.code, listed.stderr).toBe(0);
        expect(listed.stdout.trim().split('\n').map((line) => line.split('\t').slice(0, 5))).toEqual([
            ['send', '0', 'ada@example.com', 'sent', '1'],
            ['send', '1', 'alan@example.com', 'sent', '1'],
            ['send', '2', 'margaret@example.com', 'sent', '1']
        ]);
        const json = await flowctl(['runs', 'deliveries', good.runId, '--json', '--limit', '2'], { home });
        expect(json.json.map((d: { to: string }) => d.to)).toEqual(['ada@example.com', 'alan@example.com']);
        expect((await flowctl(['runs', 'deliveries', good.runId, '--status', 'failed'], { home })).stdout).toBe(`no failed e-mails in run ${good.runId}\n`);

        const bad = (await flowctl(['run', 'Bad addresses', '--watch', '--json'], { home })).json;
        const failed = await flowctl(['runs', 'deliveries', bad.runId, '--status', 'failed', '--json'], { home });
        expect(failed.json).toHaveLength(5);
        expect(failed.json[0]).toMatchObject({ nodeId: 'send', index: 0, to: 'Ada Lovelace', status: 'failed', attempts: 0 });
        expect(failed.json[0].error).toMatch(/^invalid recipient address 'Ada Lovelace'/);

        const usage = await flowctl(['runs', 'deliveries', bad.runId, '--status', 'bounced'], { home });
        expect(usage.code).toBe(2);
        expect(usage.stderr).toContain("--status 'bounced' is not one of sent, failed, unknown, pending, suppressed");
        const missing = await flowctl(['runs', 'deliveries', 'run_doesnotexist'], { home });
        expect(missing.code).toBe(1);
        expect(missing.stderr).toContain("run 'run_doesnotexist' not found");
    });
});

describe('without a terminal', () => {
    it('never prompts: a missing value is an error naming the flag', async () => {
        const home = freshHome();
        const result = await flowctl(['login'], { home, env: { FLOWCTL_API_URL: server.url } });
        expect(result.code).toBe(2);
        expect(result.stderr).toContain('missing --email (there is no terminal to ask on)');
        const register = await flowctl(['register', '--email', 'x@example.test', '--full-name', 'X'], { home });
        expect(register.code).toBe(2);
        expect(register.stderr).toContain('--password-stdin');
    });

    it('run --watch prints one plain line per state change, no spinner and no colour', async () => {
        const home = freshHome();
        await signUp(server, home);
        expect((await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'newsletter.yaml')], { home })).code).toBe(0);
        const watched = await flowctl(['run', 'Newsletter to subscribers over 30', '--watch'], { home });
        expect(watched.code, watched.stderr).toBe(0);
        const lines = watched.stdout.trim().split('\n');
        expect(lines[0]).toMatch(/^enqueued run run_\w+ of Newsletter to subscribers over 30$/);
        expect(lines).toContain('node send (OUTPUT): SUCCESS');
        expect(lines.at(-1)).toMatch(/^✓ SUCCESS in \S+ · 5 rows, 2 filtered out, 3 e-mails sent · run_\w+$/);
        expect(new Set(lines).size).toBe(lines.length);
        expect(watched.stdout + watched.stderr).not.toMatch(/\u001b\[/);
        expect(watched.stderr).toBe('');
    });
});

describe('YAML files', () => {
    it('are checked before any request: every problem with its file, line and column', async () => {
        const home = freshHome();
        const dir = workflowDir({
            'broken.yaml': `name: Broken
graph:
  nodes:
    - { id: start, type: TRIGGER, data: {} }
    - id: contacts
      type: DATA_SOURCE
      data:
        file: ./missing.csv
    - id: audience
      type: FILTER
      data:
        source: "{{contact.rows}}"
        expr: "age >"
  edges:
    - { source: start, target: contacts }
    - { source: contacts, target: audience }
    - { source: audience, target: ghost }
`,
            'syntax.yaml': 'name: Syntax\ngraph:\n  nodes: [\n'
        });
        // Not signed in and no server: the files are rejected before either matters.
        const result = await flowctl(['apply', '-f', dir, '--api-url', 'http://127.0.0.1:9'], { home, cwd: dir });
        expect(result.code).toBe(2);
        expect(result.stderr).toContain('broken.yaml:8:15: no such file: missing.csv');
        expect(result.stderr).toContain("broken.yaml:12:17: {{contact.rows}} refers to node 'contact', which does not exist (did you mean 'contacts'?)");
        expect(result.stderr).toMatch(/broken\.yaml:13:15: invalid filter expression/);
        expect(result.stderr).toContain("broken.yaml:17:35: 'target' names node 'ghost'");
        expect(result.stderr).toMatch(/syntax\.yaml:\d+:\d+: /);

        const json = await flowctl(['--json', 'apply', '-f', Path.join(dir, 'broken.yaml')], { home, cwd: dir });
        expect(json.json.error.problems).toContainEqual({ file: 'broken.yaml', line: 17, col: 35, message: "'target' names node 'ghost', which does not exist" });
    });
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
