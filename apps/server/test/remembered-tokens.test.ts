// An access token's checked signature is remembered (src/http/remembered-tokens.ts): what the clock
// or a changed signature says must still be refused, with the full check's own message.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { triggerOnly } from './upload-fixtures.js';

describe('remembered access tokens', () => {
    let t: TestServer;
    let account: TestAccount;
    let workflowId: string;

    beforeAll(async () => {
        t = await startTestServer({ config: { role: 'api' } });
        account = await createAccount(t);
        workflowId = (await t.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: 'W', graph: triggerOnly() } })).json.workflowId;
    });
    afterAll(() => t.close());
    afterEach(() => {
        vi.useRealTimers();
    });

    it('still refuses an access token once it has expired, however often it was accepted before', async () => {
        const me = () => t.request({ method: 'GET', url: `/api/workflows/${workflowId}`, headers: account.headers });
        expect((await me()).statusCode).toBe(200);
        expect((await me()).statusCode).toBe(200);

        vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 16 * 60 * 1000 });
        const late = await me();
        expect(late.statusCode).toBe(401);
        expect(late.json.message).toBe('Token expired');
    });

    it('refuses a token whose signature is wrong even when a good one with the same payload was accepted', async () => {
        const [header, payload, signature] = account.token.split('.');
        const forged = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
        expect((await t.request({ method: 'GET', url: `/api/workflows/${workflowId}`, headers: account.headers })).statusCode).toBe(200);
        const res = await t.request({ method: 'GET', url: `/api/workflows/${workflowId}`, headers: { authorization: `Bearer ${forged}` } });
        expect(res.statusCode).toBe(401);
        expect(res.json.message).toBe('Invalid token signature');
    });
});
