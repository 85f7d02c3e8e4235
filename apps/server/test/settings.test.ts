import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';

describe('account settings', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    const get = (headers: Record<string, string>) => t.request({ method: 'GET', url: '/api/account/settings', headers });
    const put = (headers: Record<string, string>, payload: unknown) => t.request({ method: 'PUT', url: '/api/account/settings', headers, payload: payload as object });
    const storedKey = async (accountId: string) =>
        (await t.app.ctx.db.one<{ ai_api_key_enc: string | null }>('SELECT ai_api_key_enc FROM accounts WHERE id = $1', [accountId]))!.ai_api_key_enc;

    it('starts empty', async () => {
        const { headers } = await createAccount(t);
        const res = await get(headers);
        expect(res.statusCode).toBe(200);
        expect(res.json).toEqual({ ai: { apiKeySet: false, apiKeyLast4: null, keyInUse: 'none', baseUrl: null, model: null, concurrency: null } });
    });

    it("says when AI nodes use the server's own key (OPENAI_API_KEY), and that the account's wins", async () => {
        const keyed = await startTestServer({ config: { ai: { apiKey: 'sk-server-0123456789', baseUrl: null, model: null } } });
        try {
            const { headers } = await createAccount(keyed);
            const before = await keyed.request({ method: 'GET', url: '/api/account/settings', headers });
            expect(before.json.ai).toMatchObject({ apiKeySet: false, keyInUse: 'server' });
            expect(before.payload).not.toContain('0123456789');
            const own = await keyed.request({ method: 'PUT', url: '/api/account/settings', headers, payload: { ai: { apiKey: 'sk-mine-0123456789abcd' } } });
            expect(own.json.ai).toMatchObject({ apiKeySet: true, keyInUse: 'account' });
        } finally {
            await keyed.close();
        }
    });

    it('keeps the key write-only and encrypted at rest, and hands it decrypted to the run worker', async () => {
        const { accountId, headers } = await createAccount(t);
        const apiKey = 'sk-test-0123456789abcdefWXYZ';
        const res = await put(headers, { ai: { apiKey, baseUrl: 'http://models.example.test:9999/v1', model: 'gpt-test', concurrency: null } });
        expect(res.statusCode).toBe(200);
        expect(res.json).toEqual({ ai: { apiKeySet: true, apiKeyLast4: 'WXYZ', keyInUse: 'account', baseUrl: 'http://models.example.test:9999/v1', model: 'gpt-test', concurrency: null } });
        expect(res.payload).not.toContain(apiKey);
        expect((await get(headers)).json).toEqual(res.json);

        const sealed = await storedKey(accountId);
        expect(sealed).toMatch(/^v1\./);
        expect(sealed).not.toContain(apiKey);
        expect(sealed).not.toContain(Buffer.from(apiKey).toString('base64'));

        expect(await t.app.services.accounts.getAiSettings(accountId)).toEqual({ apiKey, baseUrl: 'http://models.example.test:9999/v1', model: 'gpt-test', concurrency: null });
    });

    it('leaves out fields unchanged and clears those sent as null', async () => {
        const { accountId, headers } = await createAccount(t);
        await put(headers, { ai: { apiKey: 'short-key', baseUrl: 'https://ai.example.test/v1', model: 'm1' } });

        const modelOnly = await put(headers, { ai: { model: 'm2', concurrency: null } });
        // A key under 12 characters does not show its last four.
        expect(modelOnly.json).toEqual({ ai: { apiKeySet: true, apiKeyLast4: null, keyInUse: 'account', baseUrl: 'https://ai.example.test/v1', model: 'm2', concurrency: null } });
        expect((await put(headers, {})).json).toEqual(modelOnly.json);

        const cleared = await put(headers, { ai: { apiKey: null, model: null } });
        expect(cleared.json).toEqual({ ai: { apiKeySet: false, apiKeyLast4: null, keyInUse: 'none', baseUrl: 'https://ai.example.test/v1', model: null, concurrency: null } });
        expect(await storedKey(accountId)).toBeNull();
        expect(await t.app.services.accounts.getAiSettings(accountId)).toEqual({ apiKey: null, baseUrl: 'https://ai.example.test/v1', model: null, concurrency: null });
    });

    it('takes a lower AI concurrency for the account, and clears it with null', async () => {
        const { accountId, headers } = await createAccount(t);
        expect((await put(headers, { ai: { concurrency: 2 } })).json.ai.concurrency).toBe(2);
        expect((await t.app.services.accounts.getAiSettings(accountId)).concurrency).toBe(2);
        for (const concurrency of [0, 1.5, 'many']) {
            const res = await put(headers, { ai: { concurrency } });
            expect(res.statusCode).toBe(400);
            expect(res.json.details).toEqual([{ path: 'ai.concurrency', message: expect.stringContaining('concurrency') }]);
        }
        expect((await put(headers, { ai: { concurrency: null } })).json.ai.concurrency).toBeNull();
    });

    it('refuses bad values with a 400 naming the field, and changes nothing', async () => {
        const { headers } = await createAccount(t);
        const before = (await put(headers, { ai: { apiKey: 'sk-original-key-1234', model: 'keep-me' } })).json;
        const cases: [unknown, string][] = [
            [{ ai: { baseUrl: 'ftp://example.test/' } }, 'ai.baseUrl'],
            [{ ai: { baseUrl: 'not a url' } }, 'ai.baseUrl'],
            [{ ai: { apiKey: '' } }, 'ai.apiKey'],
            [{ ai: { apiKey: 42 } }, 'ai.apiKey'],
            [{ ai: { model: 'ok', temperature: 2 } }, 'ai.temperature'],
            [{ theme: 'dark' }, 'theme']
        ];
        for (const [payload, path] of cases) {
            const res = await put(headers, payload);
            expect(res.statusCode, JSON.stringify(payload)).toBe(400);
            expect(res.json.details.map((d: { path: string }) => d.path)).toContain(path);
        }

        const empty = await put(headers, { ai: { apiKey: '' } });
        expect(empty.json.message).toContain('send null to remove the key');
        expect((await get(headers)).json).toEqual(before);
    });

    it('refuses credentials inside ai.baseUrl, and never shows any that were stored before', async () => {
        const { accountId, headers } = await createAccount(t);
        for (const baseUrl of ['https://user:secret@ai.example.test/v1', 'https://user@ai.example.test/v1', 'https://:secret@ai.example.test/v1']) {
            const res = await put(headers, { ai: { baseUrl } });
            expect(res.statusCode, baseUrl).toBe(400);
            expect(res.json.details.map((d: { path: string }) => d.path)).toEqual(['ai.baseUrl']);
            expect(res.json.message).toMatch(/user name or password.*ai\.apiKey/);
            expect(res.payload).not.toContain('secret');
        }

        expect((await get(headers)).json.ai.baseUrl).toBeNull();

        // A value stored by an earlier version is shown without its credentials.
        await t.app.ctx.db.query('UPDATE accounts SET ai_base_url = $2 WHERE id = $1', [accountId, 'https://user:secret@ai.example.test/v1']);
        const shown = await get(headers);
        expect(shown.json.ai.baseUrl).toBe('https://ai.example.test/v1');
        expect(shown.payload).not.toContain('secret');
        const changed = await put(headers, { ai: { model: 'm' } });
        expect(changed.json.ai.baseUrl).toBe('https://ai.example.test/v1');
        expect(changed.payload).not.toContain('secret');
    });

    it('refuses an ai.baseUrl whose IPv6 literal embeds a private IPv4 address', async () => {
        const { headers } = await createAccount(t);
        for (const baseUrl of ['http://[::127.0.0.1]:8080/v1', 'http://[::ffff:0:127.0.0.1]/v1', 'http://[64:ff9b::127.0.0.1]/v1', 'http://[2002:7f00:1::1]/v1']) {
            const res = await put(headers, { ai: { baseUrl } });
            expect(res.statusCode, baseUrl).toBe(400);
            expect(res.json.details).toEqual([{ path: 'ai.baseUrl', message: expect.stringMatching(/is a private or local address.*ALLOW_PRIVATE_NETWORK/) }]);
        }

        expect((await get(headers)).json.ai.baseUrl).toBeNull();
    });

    it('needs an access token', async () => {
        expect((await get({})).statusCode).toBe(401);
        expect((await put({}, { ai: { model: 'x' } })).statusCode).toBe(401);
    });

    it('a key that no longer decrypts shows as set, and the worker gets a message saying how to fix it', async () => {
        const { accountId, headers } = await createAccount(t);
        await t.app.ctx.db.query("UPDATE accounts SET ai_api_key_enc = 'v1.AAAA.BBBB.CCCC' WHERE id = $1", [accountId]);
        expect((await get(headers)).json.ai).toMatchObject({ apiKeySet: true, apiKeyLast4: null });
        await expect(t.app.services.accounts.getAiSettings(accountId)).rejects.toThrow(/PUT \/api\/account\/settings/);
    });
});
