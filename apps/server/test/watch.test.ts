import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { loadConfig } from '../src/config.js';
import { type GatedSmtp, startGatedSmtp } from './gated-smtp.js';
import { startTestServer, store, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

const ROWS = 4;
const csv = ['name,email,age,city', ...Array.from({ length: ROWS }, (_, i) => `P${i},p${i}@watch.example.test,${30 + i},Faro`)].join('\n');

/** GET of a run detail with conditional and long-poll headers. */
const watch = (t: TestServer, account: TestAccount, runId: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: `/api/workflows/runs/${runId}`, headers: { ...account.headers, ...headers } });

/**
 * A run held while sending its second e-mail (so it stays RUNNING until `release()`), and a second
 * run of the same workflow that stays PENDING behind it.
 */
const heldRun = async (t: TestServer, account: TestAccount, smtp: GatedSmtp) => {
    const api = runsApi(t, account);
    const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
    const second = smtp.holdAt(smtp.accepted.length + 2);
    const runId = await api.enqueue(workflowId);
    const held = await second;
    const running = await api.waitFor(runId, (run) => run.nodes.find((n) => n.nodeId === 'send')?.output?.emailsSent === 1);
    return { api, workflowId, runId, running, release: () => held.answer(true) };
};

const oneConnection = { ...loadConfig({}).smtp, connections: 1 };

describe('watching a run: ETag, If-None-Match and Prefer: wait', () => {
    let smtp: GatedSmtp;
    let t: TestServer;
    let account: TestAccount;
    beforeAll(async () => {
        smtp = await startGatedSmtp();
        // One SMTP connection: the gated sink holds the e-mail the test waits on.
        t = await startTestServer({ config: { smtpUrl: smtp.url, smtp: oneConnection } });
        account = await createAccount(t);
    });
    afterAll(async () => {
        await t.close();
        await smtp.close();
    });

    it('answers 304 to If-None-Match while nothing changed, 200 with a new ETag once it did', async () => {
        const { api, runId, release } = await heldRun(t, account, smtp);
        const first = await watch(t, account, runId);
        expect(first.statusCode).toBe(200);
        const etag = first.headers.etag as string;
        expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);

        const unchanged = await watch(t, account, runId, { 'if-none-match': etag });
        expect(unchanged.statusCode).toBe(304);
        expect(unchanged.payload).toBe('');
        expect(unchanged.headers.etag).toBe(etag);

        release();
        const done = await api.waitFor(runId);
        const changed = await watch(t, account, runId, { 'if-none-match': etag });
        expect(changed.statusCode).toBe(200);
        expect(changed.headers.etag).not.toBe(etag);
        expect(changed.json).toEqual(done);
    });

    // RFC 9110 §13.1.2: If-None-Match compares weakly, and `*` matches any current representation.
    it('answers 304 to the weak form of the current tag, to a list naming it, and to *, even when asked to wait', { timeout: 20_000 }, async () => {
        const { api, runId, release } = await heldRun(t, account, smtp);
        const etag = (await watch(t, account, runId)).headers.etag as string;
        for (const ifNoneMatch of [`W/${etag}`, `"other", W/${etag}`, `W/"other",${etag}`, '*']) {
            const res = await watch(t, account, runId, { 'if-none-match': ifNoneMatch });
            expect(res.statusCode, ifNoneMatch).toBe(304);
            expect(res.payload).toBe('');
            expect(res.headers.etag, ifNoneMatch).toBe(etag);
        }

        // `*` is true of every state: there is nothing to wait for (a failure shows as the test's timeout).
        expect((await watch(t, account, runId, { 'if-none-match': '*', prefer: 'wait=30' })).statusCode).toBe(304);

        for (const ifNoneMatch of ['W/"other"', '"other"', `W/${etag.slice(0, -2)}"`]) {
            const res = await watch(t, account, runId, { 'if-none-match': ifNoneMatch });
            expect(res.statusCode, ifNoneMatch).toBe(200);
            expect(res.headers.etag).toBe(etag);
        }

        release();
        await api.waitFor(runId);
        expect((await watch(t, account, runId, { 'if-none-match': `W/${etag}` })).statusCode).toBe(200);
    });

    // A failure here shows as the test's timeout: the request waits up to 30 s, the test allows 20.
    it('holds a request with Prefer: wait until a node changes, and says so', { timeout: 20_000 }, async () => {
        const { runId, running, release } = await heldRun(t, account, smtp);
        const etag = (await watch(t, account, runId)).headers.etag as string;
        const waiting = watch(t, account, runId, { 'if-none-match': etag, prefer: 'wait=30' });
        let answered = false;
        void waiting.then(() => {
            answered = true;
        });
        // Other requests are served meanwhile, and the run has not moved on: the request is still held.
        expect((await watch(t, account, runId, { 'if-none-match': etag })).statusCode).toBe(304);
        expect(answered).toBe(false);

        release();
        const res = await waiting;
        expect(res.statusCode).toBe(200);
        expect(res.headers['preference-applied']).toBe('wait=30');
        expect(res.headers.etag).not.toBe(etag);
        expect(res.json.nodes.find((n: { nodeId: string }) => n.nodeId === 'send').output).not.toEqual(running.nodes.find((n) => n.nodeId === 'send')!.output);
    });

    it('answers 304 after the wait when nothing changes, and at once for a finished run', { timeout: 20_000 }, async () => {
        const { api, workflowId, runId, release } = await heldRun(t, account, smtp);
        const pending = await api.enqueue(workflowId);
        const etag = (await watch(t, account, pending)).headers.etag as string;
        const quiet = await watch(t, account, pending, { 'if-none-match': etag, prefer: 'wait=1' });
        expect(quiet.statusCode).toBe(304);
        expect(quiet.headers['preference-applied']).toBe('wait=1');

        release();
        await api.waitFor(runId);
        await api.waitFor(pending);
        const finishedTag = (await watch(t, account, pending)).headers.etag as string;
        const finished = await watch(t, account, pending, { 'if-none-match': finishedTag, prefer: 'wait=30' });
        expect(finished.statusCode).toBe(304);
    });

    it('caps the wait at 30 s, and keeps runs of other accounts hidden', async () => {
        const { api, runId, release } = await heldRun(t, account, smtp);
        release();
        await api.waitFor(runId);
        const res = await watch(t, account, runId, { prefer: 'respond-async, wait=600' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['preference-applied']).toBe('wait=30');

        const stranger = await createAccount(t);
        const hidden = await watch(t, stranger, runId, { 'if-none-match': res.headers.etag as string, prefer: 'wait=5' });
        expect(hidden.statusCode).toBe(404);
    });

    it('releases waiting requests when the server stops', { timeout: 20_000 }, async () => {
        const other = await startTestServer({ config: { smtpUrl: smtp.url, smtp: oneConnection } });
        const owner = await createAccount(other);
        const { runId, release } = await heldRun(other, owner, smtp);
        const etag = (await watch(other, owner, runId)).headers.etag as string;
        const order: string[] = [];
        const waiting = watch(other, owner, runId, { 'if-none-match': etag, prefer: 'wait=30' }).finally(() => order.push('answered'));
        await new Promise((resolve) => setImmediate(resolve));
        release();
        await other.close().finally(() => order.push('stopped'));
        expect([200, 304]).toContain((await waiting).statusCode);
        expect(order).toEqual(['answered', 'stopped']);
    });
});

// The embedded database belongs to one process; on PostgreSQL the change comes from another one.
if (store === 'postgres') {
    describe('watching a run executed by a worker in another process (PostgreSQL)', () => {
        let smtp: GatedSmtp;
        let worker: TestServer;
        let api: TestServer;
        beforeAll(async () => {
            smtp = await startGatedSmtp();
            worker = await startTestServer({ config: { role: 'worker', smtpUrl: smtp.url, smtp: oneConnection } });
            api = await startTestServer({ testStore: worker.testStore, config: { role: 'api' } });
        });
        afterAll(async () => {
            await api?.close();
            await worker?.close();
            await smtp?.close();
        });

        it('wakes a waiting request when the worker changes a node', { timeout: 20_000 }, async () => {
            const account = await createAccount(api);
            const { runId, release } = await heldRun(api, account, smtp);
            const etag = (await watch(api, account, runId)).headers.etag as string;
            const waiting = watch(api, account, runId, { 'if-none-match': etag, prefer: 'wait=30' });
            expect((await watch(api, account, runId, { 'if-none-match': etag })).statusCode).toBe(304);

            release();
            const res = await waiting;
            expect(res.statusCode).toBe(200);
            expect(res.headers.etag).not.toBe(etag);
        });
    });
}
