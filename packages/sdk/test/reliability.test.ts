import Net from 'node:net';

import Jwt from '@hapi/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AuthenticationError, RateLimitError } from '../src/index.js';
import { clientFor, randomName, type SignedUp, signUp, startTestServer, type TestServer, triggerOnly } from './server.js';

/** An access token for the account, signed with the server's key, that expired `agoSec` seconds ago. */
const expiredToken = (t: TestServer, accountId: string, agoSec = 60) =>
    Jwt.token.generate(
        { sub: accountId, typ: 'access', aud: 'flowctl:api', iss: 'flowctl' },
        { key: t.app.ctx.secrets.jwtSecret, algorithm: 'HS256' },
        { ttlSec: 15 * 60, now: Date.now() - (15 * 60 + agoSec) * 1000 }
    );

/** Status codes the server answered, per request path, in order. */
const answers = (t: TestServer) => {
    const seen: { path: string; status: number }[] = [];
    t.app.server!.events.on('response', (request) => {
        const response = request.response as { statusCode?: number; isBoom?: boolean; output?: { statusCode: number } };
        seen.push({ path: request.path, status: (response.isBoom ? response.output?.statusCode : response.statusCode) ?? 0 });
    });
    return seen;
};

describe('token refresh', () => {
    let t: TestServer;
    let account: SignedUp;
    let accountId: string;
    let seen: { path: string; status: number }[];

    beforeAll(async () => {
        t = await startTestServer();
        seen = answers(t);
        account = await signUp(t);
        const probe = clientFor(t, account);
        accountId = (await probe.auth.me()).id;
        await probe.close();
    });

    afterAll(() => t?.close());

    const refreshes = () => seen.filter((s) => s.path === '/api/auth/refresh-token').length;

    it('two concurrent requests with an expired access token share one refresh; onTokens gets the new pair', async () => {
        const pairs: string[] = [];
        const client = clientFor(t, undefined, {
            accessToken: expiredToken(t, accountId),
            refreshToken: account.refreshToken,
            onTokens: (pair) => void pairs.push(pair.refreshToken)
        });
        try {
            const before = refreshes();
            const [me, settings] = await Promise.all([client.auth.me(), client.account.settings.get()]);
            expect(me.id).toBe(accountId);
            expect(settings.ai).toBeDefined();
            expect(refreshes() - before).toBe(1);
            expect(pairs).toHaveLength(1);
            expect(client.tokens?.refreshToken).toBe(pairs[0]);
            account.refreshToken = pairs[0]!;
        } finally {
            await client.close();
        }
    });

    it('a token the server refuses (401) although not expired by its own claims: one shared refresh, then both replayed', async () => {
        const forged = Jwt.token.generate({ sub: accountId, typ: 'access', aud: 'flowctl:api', iss: 'flowctl' }, { key: 'not the server key', algorithm: 'HS256' }, { ttlSec: 600 });
        const client = clientFor(t, undefined, { accessToken: forged, refreshToken: account.refreshToken });
        try {
            const before = seen.length;
            const results = await Promise.all([client.auth.me(), client.workflows.create({ name: randomName('after-401'), graph: triggerOnly() })]);
            expect(results[0].id).toBe(accountId);
            expect(results[1].workflowId).toEqual(expect.any(String));
            const after = seen.slice(before);
            expect(after.filter((s) => s.status === 401)).toHaveLength(2);
            expect(after.filter((s) => s.path === '/api/auth/refresh-token')).toEqual([{ path: '/api/auth/refresh-token', status: 200 }]);
            account.refreshToken = client.tokens!.refreshToken;
        } finally {
            await client.close();
        }
    });

    it('a refused refresh surfaces as AuthenticationError', async () => {
        const client = clientFor(t, undefined, { accessToken: expiredToken(t, accountId), refreshToken: 'no-such-refresh-token' });
        try {
            await expect(client.auth.me()).rejects.toBeInstanceOf(AuthenticationError);
        } finally {
            await client.close();
        }
    });
});

/**
 * Requests sent at once against 2 per account per second. Three were too few: on a loaded machine they
 * could reach the server in two different seconds, none over the limit, and no 429 to test.
 */
const BURST = 6;

describe('429 and Retry-After', () => {
    let t: TestServer;
    let account: SignedUp;
    let seen: { path: string; status: number }[];

    beforeAll(async () => {
        t = await startTestServer({ config: { rateLimit: { perAccount: 2, perIp: 10_000, perHook: 120, windowSeconds: 1, mailPerIp: 1000 } } });
        seen = answers(t);
        account = await signUp(t);
    });

    afterAll(() => t?.close());

    it('a rate-limited GET is retried after Retry-After and succeeds', async () => {
        const client = clientFor(t, account);
        try {
            const before = seen.length;
            const all = await Promise.all(Array.from({ length: BURST }, () => client.auth.me()));
            expect(all.map((me) => me.email)).toEqual(Array(BURST).fill(account.email));
            const statuses = seen.slice(before).map((s) => s.status);
            expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
            expect(statuses.filter((s) => s === 200)).toHaveLength(BURST);
        } finally {
            await client.close();
        }
    });

    it('without retries left, RateLimitError with retryAfter', async () => {
        const client = clientFor(t, account, { maxRetries: 0 });
        try {
            const outcomes = await Promise.allSettled(Array.from({ length: BURST }, () => client.auth.me()));
            const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason);
            expect(refused.length).toBeGreaterThanOrEqual(1);
            expect(refused[0]).toBeInstanceOf(RateLimitError);
            expect((refused[0] as RateLimitError).retryAfter).toBeGreaterThan(0);
            expect((refused[0] as RateLimitError).status).toBe(429);
        } finally {
            await client.close();
        }
    });
});

/**
 * A TCP proxy to `target` that, once, lets a POST …/run reach the server and then cuts the connection
 * before the answer gets back: the client cannot know whether the run was created.
 */
const startDroppingProxy = async (target: URL) => {
    let dropped = 0;
    const proxy = Net.createServer((downstream) => {
        const upstream = Net.connect(Number(target.port), target.hostname);
        let lastRequest = '';
        downstream.on('data', (chunk: Buffer) => {
            const text = chunk.toString('latin1');
            if (/^(GET|POST|PUT|PATCH|DELETE) /.test(text)) {
                lastRequest = text.slice(0, text.indexOf('\r\n'));
            }
            upstream.write(chunk);
        });
        upstream.on('data', (chunk: Buffer) => {
            if (dropped === 0 && /^POST \S+\/run HTTP/.test(lastRequest)) {
                dropped++;
                downstream.destroy();
                upstream.destroy();
                return;
            }
            downstream.write(chunk);
        });
        downstream.on('error', () => upstream.destroy());
        upstream.on('error', () => downstream.destroy());
        downstream.on('close', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    return {
        url: `http://127.0.0.1:${(proxy.address() as Net.AddressInfo).port}`,
        dropped: () => dropped,
        close: () => new Promise<void>((resolve) => proxy.close(() => resolve()))
    };
};

describe('a connection dropped during enqueue', () => {
    let t: TestServer;
    let account: SignedUp;

    beforeAll(async () => {
        t = await startTestServer({ config: { role: 'api' } });
        account = await signUp(t);
    });

    afterAll(() => t?.close());

    it('is retried with the same Idempotency-Key, and exactly one run exists', async () => {
        const proxy = await startDroppingProxy(new URL(t.url));
        const keys: string[] = [];
        t.app.server!.events.on('response', (request) => {
            if (request.path.endsWith('/run')) {
                keys.push(String(request.headers['idempotency-key']));
            }
        });
        const client = clientFor(t, account, { baseUrl: proxy.url });
        try {
            const { workflowId } = await client.workflows.create({ name: randomName('once'), graph: triggerOnly() });
            const enqueued = await client.runs.enqueue(workflowId);
            expect(proxy.dropped()).toBe(1);
            expect(keys).toHaveLength(2);
            expect(keys[1]).toBe(keys[0]);
            const runs = await client.runs.list(workflowId).toArray();
            expect(runs.map((run) => run.runId)).toEqual([enqueued.runId]);
        } finally {
            await client.close();
            await proxy.close();
        }
    });
});
