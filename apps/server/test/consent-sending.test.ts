// Issue 29 at send time, against a real server and SMTP sink: the suppression list checked per chunk
// right before sending (an unsubscribe during a run stops the e-mails not yet gone), per account;
// preview's same check; the HTML part; and recipients the server refuses for good suppressed as bounced.
import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';

import pino from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openUnsubscribeToken, sealUnsubscribeToken, unsubscribeKeys } from '../src/mail/unsubscribe-token.js';
import { deliveryCounts } from '../src/store/deliveries.js';
import { sentByNode } from '../src/store/interruptions.js';
import { DeliveryJournal } from '../src/worker/delivery-journal.js';
import { createMailMetrics } from '../src/worker/mail-metrics.js';
import { createPorts } from '../src/worker/ports.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

const people = (count: number, domain = 'example.test') =>
    `name,email,age\n${Array.from({ length: count }, (_, i) => `P${i},p${i}@${domain},30`).join('\n')}\n`;

const suppressionsOf = async (t: TestServer, account: TestAccount) => {
    const res = await t.request({ method: 'GET', url: '/api/suppressions?limit=500', headers: account.headers });
    expect(res.statusCode).toBe(200);
    return res.json as { email: string; reason: string; workflowId: string | null }[];
};

/** flowctl_emails_total{outcome="suppressed"} on the app's /metrics. */
const suppressedMetric = async (t: TestServer): Promise<number> => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    return Number(/^flowctl_emails_total\{outcome="suppressed"\} (\d+)$/m.exec(text)?.[1]);
};

/** The addresses the unsubscribe tokens (…/u/{token}) in `text` open to. */
const tokenAddresses = (t: TestServer, text: string): string[] =>
    [...text.matchAll(/\/u\/([A-Za-z0-9_-]+)/g)].map((m) => openUnsubscribeToken(unsubscribeKeys(t.app.ctx.secrets.encryptionKey), m[1]!)?.email ?? `unopened ${m[1]}`);

describe('suppression list at send time', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;

    beforeAll(async () => {
        t = await startTestServer({
            // A refusal is final at once: a 4xx is not tried again for minutes.
            config: { smtp: { connections: 4, sendTimeoutMs: 30_000, dataTimeoutMs: 30_000, retryAttempts: 1, retryForMs: 1000, retryDelayMs: 10 } }
        });
        account = await createAccount(t);
        api = runsApi(t, account);
    });

    afterAll(() => t?.close());

    it('stops the e-mails to an address unsubscribed during the run that have not yet gone', async () => {
        const workflowId = await api.workflow(newsletter(await api.upload(people(1200, 'mid.test')), 'age > 0'));
        const held = t.smtp.hold(1);
        const runId = await api.enqueue(workflowId);
        await held;
        // While the first e-mails wait at the relay, p1100 unsubscribes from an earlier e-mail's link.
        const token = sealUnsubscribeToken(unsubscribeKeys(t.app.ctx.secrets.encryptionKey), { accountId: account.accountId, workflowId, email: 'p1100@mid.test' });
        expect((await t.request({ method: 'POST', url: `/u/${token}`, payload: 'List-Unsubscribe=One-Click' })).statusCode).toBe(200);
        t.smtp.release();

        // 1,200 e-mails to the sink in this process: a minute and more on a loaded 2-core machine.
        const run = await api.waitFor(runId, undefined, 240_000);
        expect(run.status).toBe('SUCCESS');
        expect(run.result).toMatchObject({ emailsSent: 1199, suppressed: 1 });
        expect(api.node(run, 'send').output).toMatchObject({ emailsSent: 1199, suppressed: 1 });
        const to = new Set(t.smtp.messages.flatMap((m) => m.to));
        expect(to.has('p1100@mid.test')).toBe(false);
        expect(to.has('p1099@mid.test') && to.has('p1101@mid.test')).toBe(true);
    });

    it("applies an account's list to its own runs only, and preview shows and counts what a run would leave out", async () => {
        const other = await createAccount(t);
        const added = await t.request({ method: 'POST', url: '/api/suppressions', headers: other.headers, payload: { emails: ['p1@iso.test'] } });
        expect(added.json).toEqual({ added: 1, alreadyPresent: 0 });
        expect(await suppressionsOf(t, account)).not.toContainEqual(expect.objectContaining({ email: 'p1@iso.test' }));

        const workflowId = await api.workflow(newsletter(await api.upload(people(3, 'iso.test')), 'age > 0'));
        expect((await t.request({ method: 'POST', url: '/api/suppressions', headers: account.headers, payload: { emails: [' P2@ISO.test '] } })).json).toEqual({
            added: 1,
            alreadyPresent: 0
        });

        const preview = await t.request({ method: 'POST', url: `/api/workflows/${workflowId}/preview`, headers: account.headers, payload: {} });
        expect(preview.statusCode, preview.payload).toBe(200);
        expect(preview.json.emails.map((e: { to: string; suppressed: boolean }) => [e.to, e.suppressed])).toEqual([
            ['p0@iso.test', false],
            ['p1@iso.test', false],
            ['p2@iso.test', true]
        ]);
        expect(preview.json.result).toMatchObject({ emailsToSend: 2, suppressed: 1 });

        const run = await api.run(workflowId);
        expect(run.result).toMatchObject({ emailsSent: 2, suppressed: 1 });
    });

    it('compares addresses in one Unicode form: an address listed composed (ë) is left out when the data spells it decomposed (e + ¨), and removed so', async () => {
        const composed = 'Zo\u00EB@unicode.test';
        const decomposed = 'zoe\u0308@unicode.test';
        expect((await t.request({ method: 'POST', url: '/api/suppressions', headers: account.headers, payload: { emails: [composed] } })).json).toEqual({ added: 1, alreadyPresent: 0 });
        expect((await t.request({ method: 'POST', url: '/api/suppressions', headers: account.headers, payload: { emails: [decomposed.toUpperCase()] } })).json).toEqual({ added: 0, alreadyPresent: 1 });

        const workflowId = await api.workflow(newsletter(await api.upload(`name,email,age\nZoe,${decomposed},30\nAna,ana@unicode.test,30\n`), 'age > 0'));
        const run = await api.run(workflowId);
        expect(run.result).toMatchObject({ emailsSent: 1, suppressed: 1 });
        expect(t.smtp.messages.filter((m) => m.to.some((to) => to.normalize('NFC').toLowerCase() === composed.toLowerCase()))).toEqual([]);

        expect((await t.request({ method: 'DELETE', url: `/api/suppressions/${encodeURIComponent(decomposed)}`, headers: account.headers })).statusCode).toBe(204);
        expect(await suppressionsOf(t, account)).not.toContainEqual(expect.objectContaining({ email: composed }));
    });

    it('pages the list newest first, removes case-insensitively (404 when absent), and refuses bad addresses naming each', async () => {
        const fresh = await createAccount(t);
        const emails = Array.from({ length: 7 }, (_, i) => `page${i}@example.test`);
        await t.request({ method: 'POST', url: '/api/suppressions', headers: fresh.headers, payload: { emails } });
        const first = await t.request({ method: 'GET', url: '/api/suppressions?limit=5', headers: fresh.headers });
        expect(first.json).toHaveLength(5);
        const next = /<([^>]+)>; rel="next"/.exec(first.headers.link as string)?.[1];
        const second = await t.request({ method: 'GET', url: next!, headers: fresh.headers });
        expect([...first.json, ...second.json].map((s: { email: string }) => s.email).sort()).toEqual(emails.sort());

        expect((await t.request({ method: 'DELETE', url: '/api/suppressions/PAGE3%40Example.test', headers: fresh.headers })).statusCode).toBe(204);
        expect((await t.request({ method: 'DELETE', url: '/api/suppressions/page3%40example.test', headers: fresh.headers })).statusCode).toBe(404);
        // Another account's address is as absent as an unknown one.
        expect((await t.request({ method: 'DELETE', url: '/api/suppressions/page4%40example.test', headers: account.headers })).statusCode).toBe(404);

        const bad = await t.request({ method: 'POST', url: '/api/suppressions', headers: fresh.headers, payload: { emails: ['ok@example.test', 'no', 'x@'] } });
        expect(bad.statusCode).toBe(400);
        expect(bad.json.details.map((d: { path: string }) => d.path)).toEqual(['emails[1]', 'emails[2]']);
        expect((await suppressionsOf(t, fresh)).map((s) => s.email)).not.toContain('ok@example.test');
        expect((await t.request({ method: 'POST', url: '/api/suppressions', headers: fresh.headers, payload: { emails: [] } })).statusCode).toBe(400);
    });

    it('sends a multipart/alternative e-mail when OUTPUT has html, every value in it HTML-escaped', async () => {
        const csv = 'name,email,age\n"<script>alert(1)</script> & Co",html@example.test,30\n';
        const graph = newsletter(await api.upload(csv), 'age > 0', { body: 'Hi {{item.name}}' });
        (graph.nodes[3]!.data as Record<string, string>).html = '<p style="color:red">Hi <b>{{item.name}}</b></p><a href="{{unsubscribeUrl}}">Unsubscribe</a>';
        const workflowId = await api.workflow(graph);
        const before = t.smtp.messages.length;
        expect((await api.run(workflowId)).status).toBe('SUCCESS');
        const [mail] = (await t.smtp.waitFor(before + 1)).slice(before);
        expect(mail!.raw).toMatch(/Content-Type: multipart\/alternative/i);
        expect(mail!.text).toBe('Hi <script>alert(1)</script> & Co');
        expect(mail!.html).toContain('<p style="color:red">Hi <b>&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co</b></p>');
        expect(mail!.html).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/u\/[A-Za-z0-9_-]+">Unsubscribe<\/a>/);
        // Headers unfolded, as a reader sees them.
        const headers = mail!.raw.split(/\r\n\r\n/)[0]!.replace(/\r\n[ \t]+/g, ' ');
        expect(headers).toMatch(/^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/u\/[A-Za-z0-9_-]+>/m);
        expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);

        const preview = await t.request({ method: 'POST', url: `/api/workflows/${workflowId}/preview`, headers: account.headers, payload: {} });
        expect(preview.json.emails[0]).toMatchObject({ text: 'Hi <script>alert(1)</script> & Co', html: expect.stringContaining('&lt;script&gt;') });
    });

    it('suppresses as bounced a recipient refused for good (5.1.1 at RCPT or after DATA), not a temporary or policy refusal', async () => {
        t.smtp.reject('gone@bounce.test', { code: 550, message: '5.1.1 <gone@bounce.test>: Recipient address rejected: User unknown' });
        t.smtp.reject('full@bounce.test', { code: 452, message: '4.2.2 Mailbox full, try later' });
        t.smtp.reject('policy@bounce.test', { code: 550, message: '5.7.1 Relaying denied' });
        t.smtp.reject('plain@bounce.test', { code: 550, message: 'No such user here' });
        const csv = 'name,email,age\nA,gone@bounce.test,30\nB,full@bounce.test,30\nC,policy@bounce.test,30\nD,plain@bounce.test,30\nE,ok@bounce.test,30\n';
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        const run = await api.run(workflowId);
        expect(run.status).toBe('FAILED');
        expect(run.result).toMatchObject({ emailsSent: 1 });

        const bounced = (await suppressionsOf(t, account)).filter((s) => s.email.endsWith('@bounce.test'));
        expect(bounced.map((s) => [s.email, s.reason, s.workflowId]).sort()).toEqual([
            ['gone@bounce.test', 'bounced', workflowId],
            ['plain@bounce.test', 'bounced', workflowId]
        ]);

        // After DATA: the one e-mail of this run is refused with 5.1.1.
        const after = await api.workflow(newsletter(await api.upload('name,email,age\nF,late@bounce.test,30\n'), 'age > 0'));
        t.smtp.failNext(1, 550, '5.1.1 late@bounce.test: mailbox does not exist');
        expect((await api.run(after)).status).toBe('FAILED');
        expect(await suppressionsOf(t, account)).toContainEqual(expect.objectContaining({ email: 'late@bounce.test', reason: 'bounced' }));

        // A retry of the failed e-mails does not send the bounced ones again: they are suppressed now.
        const counted = await suppressedMetric(t);
        const retried = await api.call('POST', `/api/workflows/runs/${run.runId}/retry`);
        expect(retried.statusCode, retried.payload).toBe(202);
        const retry = await api.waitFor(retried.json.runId);
        expect(retry.result).toMatchObject({ emailsSent: 0, suppressed: 2 });
        // Recorded as such in the retry's ledger, and counted on /metrics.
        const ledger = await api.call('GET', `/api/workflows/runs/${retry.runId}/deliveries?status=suppressed`);
        expect(ledger.statusCode, ledger.payload).toBe(200);
        expect(ledger.json.map((e: { to: string; status: string }) => [e.to, e.status])).toEqual([
            ['gone@bounce.test', 'suppressed'],
            ['plain@bounce.test', 'suppressed']
        ]);
        expect(await suppressedMetric(t)).toBe(counted + 2);
        expect(api.node(retry, 'send').output).toMatchObject({ emailsSent: 0, suppressed: 2 });
        expect(api.node(retry, 'send').error).toMatch(/^2 of 4 retried e-mails failed again/);

        // The next run leaves the bounced addresses out, as suppressed.
        const again = await api.run(workflowId);
        expect(again.result).toMatchObject({ suppressed: 2 });
    });

    it("suppresses no recipient when the relay refuses the sender (550 at MAIL FROM, or 5.1.8 at any step): that says nothing of the recipients' addresses", async () => {
        const workflowId = await api.workflow(newsletter(await api.upload(people(2, 'sender-refused.test')), 'age > 0'));
        const listed = async () => (await suppressionsOf(t, account)).filter((s) => s.email.endsWith('@sender-refused.test')).map((s) => `${s.email} ${s.reason}`);
        for (const [code, text] of [
            [553, '5.1.8 <no-reply@flowctl.test>: Sender address rejected: Domain not found'],
            [550, 'Sender address rejected: not owned by user']
        ] as const) {
            t.smtp.refuseAll(code, text);
            try {
                const run = await api.run(workflowId);
                expect(run.status, text).toBe('FAILED');
                expect(run.result).toMatchObject({ emailsSent: 0 });
            } finally {
                t.smtp.refuseAll(null);
            }

            expect(await listed(), text).toEqual([]);
        }

        // After DATA too: 5.1.8 is the sender's domain (RFC 3463), not the recipient's address.
        t.smtp.failNext(2, 550, '5.1.8 Sender address rejected: Domain not found');
        expect((await api.run(workflowId)).status).toBe('FAILED');
        expect(await listed()).toEqual([]);

        expect((await api.run(workflowId)).result).toMatchObject({ emailsSent: 2 });
    });

    it('records each element left out as suppressed in the ledger and on /metrics: never failed, sent or retried, nor sent by a resumed attempt', async () => {
        const workflowId = await api.workflow(newsletter(await api.upload(people(4, 'ledger-sup.test')), 'age > 0'));
        await t.request({ method: 'POST', url: '/api/suppressions', headers: account.headers, payload: { emails: ['p1@ledger-sup.test', 'p3@ledger-sup.test'] } });
        const counted = await suppressedMetric(t);
        const run = await api.run(workflowId);
        expect(run.status).toBe('SUCCESS');
        expect(run.result).toMatchObject({ emailsSent: 2, suppressed: 2 });
        expect(await suppressedMetric(t)).toBe(counted + 2);

        const ledger = async (query = '') => {
            const res = await api.call('GET', `/api/workflows/runs/${run.runId}/deliveries${query}`);
            expect(res.statusCode, res.payload).toBe(200);
            return res.json.map((e: { index: number; to: string; status: string }) => [e.index, e.to, e.status]);
        };
        expect(await ledger()).toEqual([
            [0, 'p0@ledger-sup.test', 'sent'],
            [1, 'p1@ledger-sup.test', 'suppressed'],
            [2, 'p2@ledger-sup.test', 'sent'],
            [3, 'p3@ledger-sup.test', 'suppressed']
        ]);
        expect(await ledger('?status=suppressed')).toEqual([
            [1, 'p1@ledger-sup.test', 'suppressed'],
            [3, 'p3@ledger-sup.test', 'suppressed']
        ]);
        expect(await ledger('?status=failed')).toEqual([]);
        expect(await ledger('?status=pending')).toEqual([]);

        // Nothing to retry: a suppressed element is no failure.
        expect((await api.call('POST', `/api/workflows/runs/${run.runId}/retry`)).statusCode).toBe(409);
        // The figures a run given up is rebuilt from count them apart.
        expect(await deliveryCounts(t.app.ctx.db, run.runId)).toEqual({ sent: 2, possiblyDuplicated: 0, unknown: 0, suppressed: 2 });
        expect((await sentByNode(t.app.ctx.db, run.runId)).get('send')).toEqual({ sent: 2, unknown: 0, suppressed: 2 });

        // An attempt resuming the run (after a crash) leaves out again what an earlier one recorded
        // suppressed, even once the address has left the list, without recording or counting it twice.
        expect((await t.request({ method: 'DELETE', url: '/api/suppressions/p1%40ledger-sup.test', headers: account.headers })).statusCode).toBe(204);
        const journalDir = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-journal-'));
        const metrics = createMailMetrics(new Registry());
        const mailsBefore = t.smtp.messages.length;
        try {
            const ports = createPorts(
                {
                    db: t.app.ctx.db,
                    mailer: t.app.ctx.mailer,
                    mailConcurrency: 1,
                    aiConcurrency: 1,
                    aiRetryBudgetMs: 1000,
                    deps: { consent: t.app.services.suppressions.consent } as never,
                    log: pino({ level: 'silent' }),
                    messageDomain: 'example.test',
                    metrics
                },
                {
                    id: run.runId,
                    originRunId: run.runId,
                    workflowId,
                    accountId: account.accountId,
                    // No lease: none of what follows may start a send (ensureLive on it would throw).
                    lease: undefined as never,
                    journal: new DeliveryJournal(journalDir, run.runId, 'resumed', () => {}),
                    resumed: true,
                    signal: new AbortController().signal,
                    onSent: () => {},
                    onProgress: () => {},
                    fail: (err) => {
                        throw err;
                    }
                }
            );
            const ctx = { nodeId: 'send', signal: new AbortController().signal };
            const candidates = [0, 1, 2, 3].map((index) => ({ index, address: `p${index}@ledger-sup.test` }));
            expect([...(await ports.suppressed!('send', candidates, ctx))].sort()).toEqual([1, 3]);
            ports.onSuppressed!({ to: 'p1@ledger-sup.test', subject: 's', body: 'b' }, { nodeId: 'send', index: 1 });
            // Asked to send it all the same, it does not.
            expect(await ports.sendMail({ to: 'p1@ledger-sup.test', subject: 's', body: 'b' }, { nodeId: 'send', index: 1 }, ctx)).toBe(false);
            await ports.settle();
        } finally {
            await Fs.rm(journalDir, { recursive: true, force: true });
        }

        expect(t.smtp.messages.length).toBe(mailsBefore);
        expect(await metrics.emails.get()).toMatchObject({ values: expect.arrayContaining([expect.objectContaining({ labels: { outcome: 'suppressed' }, value: 0 })]) });
        expect(await ledger('?status=suppressed')).toHaveLength(2);
    });

    it("test-sends the preview's e-mails with the caller's own unsubscribe link in place of the row's; the preview shows the row's", async () => {
        const graph = newsletter(await api.upload(people(1, 'testsend.test')), 'age > 0', { body: 'Hi {{item.name}}, leave: {{unsubscribeUrl}}' });
        (graph.nodes[3]!.data as Record<string, string>).html = '<p>Hi</p><a href="{{unsubscribeUrl}}">Unsubscribe</a> {{unsubscribeUrl}}';
        const workflowId = await api.workflow(graph);
        const before = t.smtp.messages.length;
        const res = await t.request({ method: 'POST', url: `/api/workflows/${workflowId}/preview`, headers: account.headers, payload: { sendTestTo: 'me' } });
        expect(res.statusCode, res.payload).toBe(200);
        expect(res.json.testSent).toBe(1);
        // The answer shows the e-mail as a run renders it: the row's link.
        const [shown] = res.json.emails as { text: string; html: string }[];
        expect(tokenAddresses(t, shown!.text)).toEqual(['p0@testsend.test']);
        expect(tokenAddresses(t, shown!.html)).toEqual(['p0@testsend.test', 'p0@testsend.test']);

        const [mail] = (await t.smtp.waitFor(before + 1)).slice(before);
        expect(mail!.to).toEqual([account.email]);
        const headers = mail!.raw.split(/\r\n\r\n/)[0]!.replace(/\r\n[ \t]+/g, ' ');
        expect(tokenAddresses(t, mail!.text)).toEqual([account.email]);
        expect(tokenAddresses(t, mail!.html!)).toEqual([account.email, account.email]);
        expect(tokenAddresses(t, headers)).toEqual([account.email]);
        expect(tokenAddresses(t, mail!.raw)).not.toContain('p0@testsend.test');
    });
});
