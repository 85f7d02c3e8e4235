// The built flowctl binary against a real server: the README quickstart with --json, the credentials
// file, personal API tokens, behaviour without a terminal, and YAML errors. (Exit codes and runs
// deliveries: cli-runs.test.ts; upload names, apply twice and google: cli-apply.test.ts. Apart, so
// that they run beside each other, each against a server of its own.)
import Fs from 'node:fs';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { credentialsOf, EXAMPLES, flowctl, freshHome, otpFor, type Server, signUp, startServer, workflowDir } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

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
