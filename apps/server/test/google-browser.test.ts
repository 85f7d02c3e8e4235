import { afterAll, beforeAll, expect, it } from 'vitest';

import { launchBrowser } from './browser.js';
import { createAccount } from './fixtures.js';
import { startWithGoogle } from './google-server.js';
import { type GoogleStub, startGoogleStub } from './google-stub.js';
import type { TestServer } from './harness.js';

let stub: GoogleStub;
let t: TestServer;

beforeAll(async () => {
    stub = await startGoogleStub();
    t = await startWithGoogle(stub);
});

afterAll(async () => {
    await t?.close();
    await stub?.close();
});

it('links a Google account in a real browser: connect → consent page → callback → linked', async () => {
    const account = await createAccount(t);
    const browser = await launchBrowser();
    try {
        const page = await browser.newPage();
        await page.goto(`${t.url}/api/integrations/google/connect?access_token=${account.token}`);
        expect(page.url()).toContain(`${stub.url}/o/oauth2/v2/auth?`);
        await page.click('#allow');
        await page.waitForURL(`${t.url}/api/integrations/google/callback?**`);
        expect(await page.textContent('h1')).toBe('Google account linked');
        expect(await page.textContent('p')).toContain(stub.email);
    } finally {
        await browser.close();
    }

    const status = await t.request({ method: 'GET', url: '/api/integrations/google/status', headers: account.headers });
    expect(status.json).toEqual({ connected: true, email: stub.email });
});
