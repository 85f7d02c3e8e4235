// What the CLI prints names CLI commands, never API routes, also when it passes a server message on.
import Fs from 'node:fs';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { credentialsOf, flowctl, freshEmail, freshHome, otpFor, type Server, signUp, startServer, workflowDir } from './harness.js';

const API_ROUTE = /\b(GET|POST|PUT|PATCH|DELETE) \/api\//;

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

describe('server messages the CLI passes on', () => {
    it('a saved sign-in the server no longer accepts: log in again with `flowctl login`', async () => {
        const home = freshHome();
        await signUp(server, home);
        const file = Path.join(home, 'flowctl', 'credentials.json');
        const saved = credentialsOf(home);
        saved.profiles.default.accessToken = 'not-a-valid-token';
        saved.profiles.default.refreshToken = 'not-a-valid-refresh-token';
        Fs.writeFileSync(file, JSON.stringify(saved), { mode: 0o600 });

        for (const json of [false, true]) {
            const result = await flowctl([...(json ? ['--json'] : []), 'whoami'], { home });
            expect(result.code).toBe(3);
            expect(result.stderr).toContain('log in again with `flowctl login`');
            expect(result.stderr).not.toMatch(API_ROUTE);
            expect(result.stdout).not.toMatch(API_ROUTE);
        }
    });

    it('a wrong verification code: request a new one with `flowctl verify --resend`', async () => {
        const home = freshHome();
        const env = { FLOWCTL_API_URL: server.url };
        const email = freshEmail('wording');
        const registered = await flowctl(['--json', 'register', '--email', email, '--full-name', 'W', '--password-stdin'], { home, env, input: 'correct horse battery\n' });
        expect(registered.code, registered.stderr).toBe(0);
        expect(registered.json.message).toContain('`flowctl verify`');
        expect(registered.stdout).not.toMatch(API_ROUTE);

        const code = await otpFor(server.smtp, email);
        const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
        const result = await flowctl(['verify', '--email', email, '--code', wrong], { home, env });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('request a new one with `flowctl verify --resend`');
        expect(result.stderr).not.toMatch(API_ROUTE);
    });

    it('a server that cannot be reached: the address and the reason, not the request', async () => {
        const result = await flowctl(['login', '--email', 'a@example.test', '--password-stdin', '--api-url', 'http://127.0.0.1:9'], {
            home: freshHome(),
            input: 'correct horse battery\n'
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('cannot reach the flowctl server at http://127.0.0.1:9: could not reach');
        expect(result.stderr).not.toMatch(API_ROUTE);
        expect(result.stderr).not.toContain('`flowctl login`:');
    });

    it('a workflow naming an upload that does not exist: upload the CSV first with `flowctl upload`', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({
            'ghost.yaml': `name: Ghost upload
graph:
  nodes:
    - { id: start, type: TRIGGER, data: {} }
    - { id: contacts, type: DATA_SOURCE, data: { uploadId: upl_doesnotexist } }
  edges:
    - { source: start, target: contacts }
`
        });
        const result = await flowctl(['apply', '-f', Path.join(dir, 'ghost.yaml')], { home, cwd: dir });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain("upload 'upl_doesnotexist' not found: upload the CSV first (`flowctl upload <file.csv>`)");
        expect(result.stderr).not.toMatch(API_ROUTE);
    });

    it('a name holding terminal escapes is shown, not obeyed; --json keeps it exact', async () => {
        const home = freshHome();
        await signUp(server, home);
        // YAML's double quotes know \e (ESC) and \a (BEL): an OSC that retitles the terminal, and a bidi override.
        const dir = workflowDir({ 'hostile.yaml': 'name: "Hostile \\e]0;pwned\\a \\u202Etxt.exe"\ngraph:\n  nodes:\n    - { id: start, type: TRIGGER, data: {} }\n  edges: []\n' });
        const applied = await flowctl(['apply', '-f', Path.join(dir, 'hostile.yaml')], { home, cwd: dir });
        expect(applied.code, applied.stderr).toBe(0);
        const name = 'Hostile \u001b]0;pwned\u0007 \u202Etxt.exe';

        const listed = await flowctl(['workflows', 'list'], { home });
        expect(listed.code, listed.stderr).toBe(0);
        expect(listed.stdout).toContain('Hostile ^[]0;pwned^G <U+202E>txt.exe');
        expect(applied.stdout + applied.stderr + listed.stdout).not.toMatch(/[\u001b\u0007\u202E]/);

        const json = await flowctl(['--json', 'workflows', 'list'], { home });
        expect(json.json.map((w: { name: string }) => w.name)).toContain(name);
    });
});
