import Fs from 'node:fs';

import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { startWithGoogle } from './google-server.js';
import { type GoogleStub, startGoogleStub } from './google-stub.js';
import type { TestServer } from './harness.js';

// Debian's chromium; .ci/run installs it when missing. Elsewhere: CHROMIUM_PATH=/path/to/chrome.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
    expect(Fs.existsSync(CHROMIUM), `no browser at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`).toBe(true);
    const account = await createAccount(t);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
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
