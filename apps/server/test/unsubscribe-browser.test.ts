// The unsubscribe page in a real browser, JavaScript off as some mail readers' browsers have it:
// opening the link from an e-mail changes nothing; the button unsubscribes.
import { afterAll, beforeAll, expect, it } from 'vitest';

import { launchBrowser } from './browser.js';
import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

let t: TestServer;

beforeAll(async () => {
    t = await startTestServer();
});

afterAll(() => t?.close());

it('shows the masked address and the sender, and unsubscribes only when the button is pressed', async () => {
    const account = await createAccount(t);
    const api = runsApi(t, account);
    const workflowId = await api.workflow(newsletter(await api.upload('name,email,age\nAda,ada.lovelace@example.test,36\n'), 'age > 0', { body: 'Leave: {{unsubscribeUrl}}' }));
    expect((await api.run(workflowId)).status).toBe('SUCCESS');
    const [mail] = await t.smtp.waitFor(1);
    // The link as the e-mail has it, on the address the test server listens on (PORT=0 here).
    const link = new URL(/Leave: (\S+)/.exec(mail!.text)![1]!);
    const url = `${t.url}${link.pathname}`;
    const listed = async () => (await t.request({ method: 'GET', url: '/api/suppressions', headers: account.headers })).json as { email: string; reason: string }[];

    const browser = await launchBrowser();
    try {
        const context = await browser.newContext({ javaScriptEnabled: false });
        const page = await context.newPage();
        const opened = await page.goto(url);
        expect(opened?.status()).toBe(200);
        expect(await page.textContent('h1')).toBe('Unsubscribe');
        const text = await page.textContent('body');
        expect(text).toContain('a•••e@example.test');
        expect(text).toContain('no-reply@flowctl.test');
        expect(text).not.toContain('ada.lovelace');
        expect(await listed()).toEqual([]);

        const [answer] = await Promise.all([page.waitForResponse((res) => res.request().method() === 'POST'), page.click('button[type=submit]')]);
        expect(answer.status()).toBe(200);
        await page.waitForLoadState();
        expect(await page.textContent('h1')).toBe('You are unsubscribed');
        expect(await context.cookies()).toEqual([]);
    } finally {
        await browser.close();
    }

    expect(await listed()).toEqual([expect.objectContaining({ email: 'ada.lovelace@example.test', reason: 'unsubscribed', workflowId })]);
});
