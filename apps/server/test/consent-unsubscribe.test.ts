// Issue 29, part 1: every e-mail carries a one-click unsubscribe link; GET /u/{token} only shows a
// page, POST suppresses the address; the next run leaves it out, counted as suppressed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sealUnsubscribeToken, unsubscribeKeys } from '../src/mail/unsubscribe-token.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

const CSV = 'name,email,age\nAda,ada@example.test,36\nBob,Bob@Example.test,41\nCy,cy@example.test,29\n';
const BODY = 'Hi {{item.name}},\nnews.\nLeave: {{unsubscribeUrl}}';

const header = (raw: string, name: string): string | null => {
    const unfolded = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
    return line ? line.slice(name.length + 1).trim() : null;
};

/** The path of the List-Unsubscribe link, to call on the test server. */
const linkPath = (raw: string): string => {
    const value = header(raw, 'List-Unsubscribe');
    expect(value).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/u\/[A-Za-z0-9_-]+>$/);
    return new URL(value!.slice(1, -1)).pathname;
};

const ONE_CLICK = { 'content-type': 'application/x-www-form-urlencoded' };

describe('one-click unsubscribe', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;
    let workflowId: string;
    let path: string;

    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
        api = runsApi(t, account);
        workflowId = await api.workflow(newsletter(await api.upload(CSV), 'age > 0', { body: BODY }));
    });

    afterAll(() => t?.close());

    it('puts List-Unsubscribe and List-Unsubscribe-Post on every e-mail, and the same link where {{unsubscribeUrl}} stands', async () => {
        const run = await api.run(workflowId);
        expect(run.status).toBe('SUCCESS');
        const mails = await t.smtp.waitFor(3);
        for (const mail of mails) {
            expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
            const link = header(mail.raw, 'List-Unsubscribe')!.slice(1, -1);
            expect(mail.text).toContain(`Leave: ${link}`);
            // Neither the address nor the ids can be read in the link. (The whole address: a local part as
            // short as `cy` turns up by chance in a random base64url token.)
            const token = link.slice(link.lastIndexOf('/') + 1);
            for (const readable of [mail.to[0]!, encodeURIComponent(mail.to[0]!), account.accountId, workflowId]) {
                expect(token.toLowerCase()).not.toContain(readable.toLowerCase());
            }
        }

        path = linkPath(mails.find((m) => m.to[0] === 'Bob@Example.test')!.raw);
    });

    it('shows a page on GET that names the masked address and the sender, and changes nothing', async () => {
        const page = await t.request({ method: 'GET', url: path });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toContain('text/html');
        expect(page.payload).toContain('B•••b@Example.test');
        expect(page.payload).toContain('no-reply@flowctl.test');
        expect(page.payload).toContain('<form method="post">');
        expect(page.payload).not.toContain('<script');
        const list = await t.request({ method: 'GET', url: '/api/suppressions', headers: account.headers });
        expect(list.json).toEqual([]);
    });

    it('ignores a query string a link tracker or mail client added to the link: the same page, and the POST unsubscribes', async () => {
        const page = await t.request({ method: 'GET', url: `${path}?utm_source=newsletter&utm_medium=email` });
        expect(page.statusCode).toBe(200);
        expect(page.payload).toContain('B•••b@Example.test');
        const changed = await t.request({ method: 'GET', url: `${path.slice(0, -1)}${path.endsWith('A') ? 'B' : 'A'}?utm_source=x` });
        expect(changed.statusCode).toBe(404);
        expect(changed.headers['content-type']).toContain('text/html');
        const posted = await t.request({ method: 'POST', url: `${path}?utm_source=newsletter`, headers: ONE_CLICK, payload: 'List-Unsubscribe=One-Click' });
        expect(posted.statusCode).toBe(200);
        const list = await t.request({ method: 'GET', url: '/api/suppressions', headers: account.headers });
        expect(list.json.map((s: { email: string }) => s.email)).toEqual(['Bob@Example.test']);
        // Undone, so that the tests after this one start from an empty list as before.
        expect((await t.request({ method: 'DELETE', url: '/api/suppressions/bob@example.test', headers: account.headers })).statusCode).toBe(204);
    });

    it('unsubscribes on the RFC 8058 POST with 200, no cookie and no redirect; again is 200 and changes nothing', async () => {
        for (let i = 0; i < 2; i++) {
            const res = await t.request({ method: 'POST', url: path, headers: ONE_CLICK, payload: 'List-Unsubscribe=One-Click' });
            expect(res.statusCode).toBe(200);
            expect(res.headers['set-cookie']).toBeUndefined();
            expect(res.headers.location).toBeUndefined();
        }

        const list = await t.request({ method: 'GET', url: '/api/suppressions', headers: account.headers });
        expect(list.json).toEqual([{ email: 'Bob@Example.test', reason: 'unsubscribed', workflowId, createdAt: expect.any(String) }]);
    });

    it('leaves the address out of the next run, counted as suppressed, not as sent or failed', async () => {
        const before = t.smtp.messages.length;
        const run = await api.run(workflowId);
        expect(run.status).toBe('SUCCESS');
        expect(run.result).toMatchObject({ emailsSent: 2, suppressed: 1 });
        expect(api.node(run, 'send').output).toMatchObject({ emailsSent: 2, suppressed: 1 });
        const mails = await t.smtp.waitFor(before + 2);
        expect(mails.slice(before).map((m) => m.to[0]).sort()).toEqual(['ada@example.test', 'cy@example.test']);
    });

    it('answers 404 to a token with any character changed, and suppresses nobody', async () => {
        const token = path.slice('/u/'.length);
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        for (let i = 0; i < token.length; i++) {
            const other = alphabet[(alphabet.indexOf(token[i]!) + 1 + (i % 63)) % 64]!;
            const altered = `${token.slice(0, i)}${other}${token.slice(i + 1)}`;
            const res = await t.request({ method: 'POST', url: `/u/${altered}`, headers: ONE_CLICK, payload: 'List-Unsubscribe=One-Click' });
            expect(res.statusCode, `character ${i}`).toBe(404);
        }

        for (const bad of [token.slice(0, -1), `${token}A`, 'x', 'A'.repeat(5000), 'a.b']) {
            const res = await t.request({ method: 'POST', url: `/u/${bad}`, payload: '' });
            expect(res.statusCode, bad.slice(0, 20)).toBe(404);
        }

        // A NUL byte is refused before any route, as everywhere.
        expect((await t.request({ method: 'POST', url: '/u/%00', payload: '' })).statusCode).toBe(400);

        const list = await t.request({ method: 'GET', url: '/api/suppressions', headers: account.headers });
        expect(list.json).toHaveLength(1);
    });

    it('refuses a body that is not the RFC 8058 one (400) and a 10 MB one (413), never a 500', async () => {
        const other = await t.request({ method: 'POST', url: path, headers: ONE_CLICK, payload: 'List-Unsubscribe=Everything' });
        expect(other.statusCode).toBe(400);
        const huge = await t.request({ method: 'POST', url: path, headers: ONE_CLICK, payload: `List-Unsubscribe=One-Click&x=${'a'.repeat(10 * 1024 * 1024)}` });
        expect(huge.statusCode).toBe(413);
        const json = await t.request({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: '{"List-Unsubscribe":' });
        expect(json.statusCode).toBe(400);
        const empty = await t.request({ method: 'POST', url: path });
        expect(empty.statusCode).toBe(200);
        const multipart = await t.request({
            method: 'POST',
            url: path,
            headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
            payload: '--XyZ\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--XyZ--\r\n'
        });
        expect(multipart.statusCode).toBe(200);
    });

    it("keeps a deleted workflow's links working, and answers 404 to a deleted account's", async () => {
        const keys = unsubscribeKeys(t.app.ctx.secrets.encryptionKey);
        const gone = sealUnsubscribeToken(keys, { accountId: account.accountId, workflowId: 'wf_deleted', email: 'cy@example.test' });
        expect((await t.request({ method: 'POST', url: `/u/${gone}`, payload: 'List-Unsubscribe=One-Click' })).statusCode).toBe(200);

        const other = await createAccount(t);
        const orphan = sealUnsubscribeToken(keys, { accountId: other.accountId, workflowId, email: 'ada@example.test' });
        await t.app.ctx.db.query('DELETE FROM accounts WHERE id = $1', [other.accountId]);
        expect((await t.request({ method: 'GET', url: `/u/${orphan}` })).statusCode).toBe(404);
        expect((await t.request({ method: 'POST', url: `/u/${orphan}`, payload: 'List-Unsubscribe=One-Click' })).statusCode).toBe(404);

        const list = await t.request({ method: 'GET', url: '/api/suppressions', headers: account.headers });
        expect(list.json.map((s: { email: string }) => s.email).sort()).toEqual(['Bob@Example.test', 'cy@example.test']);
    });

    it('limits unsubscribe requests per client address', async () => {
        const remoteAddress = '203.0.113.9';
        // 600 a window per address: asked 50 at a time, so a loaded machine does not hold the test past its timeout.
        let limited = null;
        for (let sent = 0; sent < 700 && !limited; sent += 50) {
            const batch = await Promise.all(Array.from({ length: 50 }, () => t.request({ method: 'GET', url: path, remoteAddress })));
            limited = batch.find((res) => res.statusCode === 429) ?? null;
        }

        expect(limited?.headers['retry-after']).toBeDefined();
        // Another address is not affected.
        expect((await t.request({ method: 'GET', url: path, remoteAddress: '203.0.113.10' })).statusCode).toBe(200);
    });
});
