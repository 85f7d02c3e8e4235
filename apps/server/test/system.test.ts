import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestServer, type TestServer } from './harness.js';

describe('system endpoints', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('answers /healthz and /readyz over a real socket', async () => {
        const health = await fetch(`${t.url}/healthz`);
        expect(health.status).toBe(200);
        expect(await health.json()).toEqual({ status: 'ok' });
        expect(health.headers.get('x-request-id')).toBeTruthy();

        const ready = await fetch(`${t.url}/readyz`);
        expect(await ready.json()).toEqual({ status: 'ready' });
    });

    it('answers an unknown path with a Boom 404 body', async () => {
        const res = await t.request({ method: 'GET', url: '/nope' });
        expect(res.statusCode).toBe(404);
        expect(res.json).toMatchObject({ statusCode: 404, error: 'Not Found' });
    });
});
