// Which server the CLI talks to, and what it sends there: a saved sign-in goes only to the server
// that issued it, and a server address that is no URL is a usage error.
import Http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { credentialsOf, flowctl, freshHome, type Server, signUp, startServer } from './harness.js';

interface Seen {
    method: string;
    url: string;
    authorization: string | undefined;
    body: string;
}

/** Another "server": answers 401 to everything and records every request it gets. */
const startRecorder = async (): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> => {
    const seen: Seen[] = [];
    const server = Http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => {
            body += chunk;
        });
        req.on('end', () => {
            seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
            res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 401, error: 'Unauthorized', message: 'Missing authentication' }));
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        close: () => new Promise<void>((resolve) => server.close(() => resolve()))
    };
};

let server: Server;
let recorder: Awaited<ReturnType<typeof startRecorder>>;

beforeAll(async () => {
    [server, recorder] = await Promise.all([startServer(), startRecorder()]);
});

afterAll(async () => {
    await Promise.all([server?.close(), recorder?.close()]);
});

describe('a saved sign-in', () => {
    it('is never sent to another server (--api-url or FLOWCTL_API_URL): no token, no refresh; the user is told to sign in there', async () => {
        const home = freshHome();
        const { email } = await signUp(server, home);
        const saved = credentialsOf(home).profiles.default;
        expect(saved.refreshToken).toBeTruthy();

        for (const how of [{ args: ['--api-url', recorder.url] }, { args: [], env: { FLOWCTL_API_URL: `${recorder.url}/` } }]) {
            const result = await flowctl([...how.args, 'whoami'], { home, ...(how.env ? { env: how.env } : {}) });
            expect(result.code, result.stderr).toBe(3);
            expect(result.stderr).toContain(`not signed in to ${recorder.url}`);
            expect(result.stderr).toContain(`flowctl login --api-url ${recorder.url}`);
        }

        // logout pointed at the other server revokes nothing there and keeps the real sign-in.
        const out = await flowctl(['--api-url', recorder.url, 'logout'], { home });
        expect(out.code, out.stderr).toBe(0);

        for (const request of recorder.seen) {
            expect(request.authorization).toBeUndefined();
            expect(request.body).not.toContain(saved.refreshToken);
            expect(request.body).not.toContain(saved.accessToken);
        }

        expect(credentialsOf(home).profiles.default).toMatchObject({ refreshToken: saved.refreshToken });
        const mine = await flowctl(['--json', 'whoami'], { home });
        expect(mine.code, mine.stderr).toBe(0);
        expect(mine.json).toMatchObject({ credentials: 'profile', account: { email } });
    });

    it('is bound to its server however the address is spelled (trailing slash, upper-case scheme)', async () => {
        const home = freshHome();
        const { email } = await signUp(server, home);
        const spelled = `${server.url.replace('http://', 'HTTP://')}/`;
        const result = await flowctl(['--json', '--api-url', spelled, 'whoami'], { home });
        expect(result.code, result.stderr).toBe(0);
        expect(result.json).toMatchObject({ account: { email } });
    });

    it('registering on another server drops the sign-in saved for the first one instead of carrying it over', async () => {
        const home = freshHome();
        await signUp(server, home);
        const result = await flowctl(['register', '--email', 'someone@example.test', '--full-name', 'X', '--password-stdin'], {
            home,
            env: { FLOWCTL_API_URL: recorder.url },
            input: 'correct horse battery\n'
        });
        expect(result.code).not.toBe(0);
        const seen = recorder.seen.length;
        const whoami = await flowctl(['whoami'], { home, env: { FLOWCTL_API_URL: recorder.url } });
        expect(whoami.code).toBe(3);
        expect(recorder.seen.slice(seen).every((request) => request.authorization === undefined)).toBe(true);
    });
});

describe('a server address that is not a URL', () => {
    it('is a usage error (exit 2) saying what a URL looks like, from --api-url or FLOWCTL_API_URL', async () => {
        const home = freshHome();
        for (const how of [{ args: ['--api-url', 'notaurl'] }, { args: [], env: { FLOWCTL_API_URL: 'notaurl' } }, { args: ['--api-url', 'ftp://example.com'] }]) {
            const result = await flowctl([...how.args, 'whoami'], { home, ...(how.env ? { env: how.env } : {}) });
            expect(result.code, result.stderr).toBe(2);
            expect(result.stderr).toContain('http(s)://host[:port]');
            expect(result.stderr).not.toContain('bug in flowctl');
        }

        const json = await flowctl(['--json', '--api-url', 'notaurl', 'login', '--email', 'a@example.test', '--password-stdin'], { home, input: 'correct horse battery\n' });
        expect(json.code).toBe(2);
        expect(json.json.error).toMatchObject({ exitCode: 2, message: expect.stringContaining("'notaurl'") });
    });
});
