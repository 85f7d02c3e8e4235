import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { bearer } from './sign-up.js';
import { triggerOnly } from './upload-fixtures.js';

describe('personal API tokens', () => {
    let t: TestServer;
    let account: TestAccount;
    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
    });
    afterAll(() => t.close());

    const call = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
        t.request({ method, url, headers, ...(payload === undefined ? {} : { payload }) });

    const create = async (name: string, who: TestAccount = account, extra: object = {}) => {
        const res = await call('POST', '/api/account/tokens', who.headers, { name, ...extra });
        expect(res.statusCode, res.payload).toBe(201);
        return res.json as { id: string; name: string; prefix: string; token: string; createdAt: string; lastUsedAt: null; expiresAt: string | null };
    };

    it('creates a token shown once, stored only as a hash, listed without its secret', async () => {
        const owner = await createAccount(t);
        const created = await create('CI deploys', owner, { expiresInDays: 30 });
        expect(created).toEqual({
            id: expect.stringMatching(/^tok_/),
            name: 'CI deploys',
            token: expect.stringMatching(/^flc_[A-Za-z0-9_-]{43}$/),
            prefix: created.token.slice(0, 10),
            createdAt: expect.any(String),
            lastUsedAt: null,
            expiresAt: expect.any(String)
        });
        const days = (Date.parse(created.expiresAt!) - Date.parse(created.createdAt)) / 86_400_000;
        expect(days).toBe(30);

        const stored = await t.app.ctx.db.query<Record<string, unknown>>('SELECT * FROM api_tokens WHERE id = $1', [created.id]);
        expect(JSON.stringify(stored)).not.toContain(created.token);
        expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);

        const list = await call('GET', '/api/account/tokens', owner.headers);
        expect(list.statusCode).toBe(200);
        const { token: _secret, ...view } = created;
        expect(list.json).toEqual([view]);
        expect(list.payload).not.toContain(created.token);
    });

    it('is accepted as a bearer token wherever an access token is, for its own account only', async () => {
        const { token } = await create('scripts');
        const me = await call('GET', '/api/auth/me', bearer(token));
        expect(me.statusCode, me.payload).toBe(200);
        expect(me.json.id).toBe(account.accountId);

        const made = await call('POST', '/api/workflows', bearer(token), { name: 'made with a token', graph: triggerOnly() });
        expect(made.statusCode, made.payload).toBe(201);
        const other = await createAccount(t);
        expect((await call('GET', `/api/workflows/${made.json.workflowId}`, other.headers)).statusCode).toBe(404);
        expect((await call('GET', `/api/workflows/${made.json.workflowId}`, bearer(token))).statusCode).toBe(200);
    });

    it('refuses unknown, malformed and missing credentials with 401, and still takes access tokens', async () => {
        const unknown = await call('GET', '/api/auth/me', bearer(`flc_${'A'.repeat(43)}`));
        expect(unknown.statusCode).toBe(401);
        expect(unknown.json.message).toMatch(/API token/);
        expect((await call('GET', '/api/auth/me', bearer('not-a-token'))).statusCode).toBe(401);
        expect((await call('GET', '/api/auth/me', {})).statusCode).toBe(401);
        expect((await call('GET', '/api/auth/me', account.headers)).statusCode).toBe(200);
    });

    it('revokes at once; another account can neither see nor revoke it', async () => {
        const { id, token } = await create('short-lived');
        const stranger = await createAccount(t);
        expect((await call('DELETE', `/api/account/tokens/${id}`, stranger.headers)).statusCode).toBe(404);
        expect((await call('GET', '/api/account/tokens', stranger.headers)).json).toEqual([]);
        expect((await call('GET', '/api/auth/me', bearer(token))).statusCode).toBe(200);

        const revoked = await call('DELETE', `/api/account/tokens/${id}`, account.headers);
        expect(revoked.statusCode).toBe(204);
        expect(revoked.payload).toBe('');
        expect((await call('GET', '/api/auth/me', bearer(token))).statusCode).toBe(401);
        expect((await call('GET', '/api/account/tokens', account.headers)).json.map((tok: { id: string }) => tok.id)).not.toContain(id);
        expect((await call('DELETE', `/api/account/tokens/${id}`, account.headers)).statusCode).toBe(404);
    });

    it('stops working when it expires', async () => {
        const { id, token } = await create('expiring', account, { expiresInDays: 1 });
        expect((await call('GET', '/api/auth/me', bearer(token))).statusCode).toBe(200);
        await t.app.ctx.db.query("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [id]);
        expect((await call('GET', '/api/auth/me', bearer(token))).statusCode).toBe(401);
    });

    it('records its last use at most once a minute', async () => {
        const owner = await createAccount(t);
        const { id, token } = await create('usage', owner);
        const lastUsed = async () => (await call('GET', '/api/account/tokens', owner.headers)).json.find((tok: { id: string }) => tok.id === id).lastUsedAt;

        await call('GET', '/api/auth/me', bearer(token));
        const first = await lastUsed();
        expect(first).toEqual(expect.any(String));
        await call('GET', '/api/auth/me', bearer(token));
        expect(await lastUsed()).toBe(first);

        await t.app.ctx.db.query("UPDATE api_tokens SET last_used_at = last_used_at - interval '61 seconds' WHERE id = $1", [id]);
        const aged = await lastUsed();
        await call('GET', '/api/auth/me', bearer(token));
        expect(Date.parse(await lastUsed())).toBeGreaterThan(Date.parse(aged));
    });

    it('cannot be used to create another token', async () => {
        const { token } = await create('no minting');
        const res = await call('POST', '/api/account/tokens', bearer(token), { name: 'child' });
        expect(res.statusCode).toBe(403);
        expect(res.json.message).toMatch(/log in/);
    });

    it('rejects bad input with 400 and a bounded number of tokens with 409', async () => {
        const missing = await call('POST', '/api/account/tokens', account.headers, {});
        expect(missing.statusCode).toBe(400);
        expect(missing.json.details).toEqual([{ path: 'name', message: expect.stringContaining('name') }]);
        const zero = await call('POST', '/api/account/tokens', account.headers, { name: 'x', expiresInDays: 0 });
        expect(zero.statusCode).toBe(400);
        expect(zero.json.details[0].path).toBe('expiresInDays');

        const hoarder = await createAccount(t);
        for (let i = 0; i < 50; i++) {
            await create(`token ${i}`, hoarder);
        }

        const over = await call('POST', '/api/account/tokens', hoarder.headers, { name: 'one too many' });
        expect(over.statusCode).toBe(409);
        expect(over.json.message).toMatch(/at most 50/);
    });

    it('declares its extra error answers in the OpenAPI document', async () => {
        const doc = (await t.request({ method: 'GET', url: '/openapi.json' })).json;
        expect(Object.keys(doc.paths['/api/account/tokens'].post.responses)).toEqual(expect.arrayContaining(['201', '403', '409']));
    });
});
