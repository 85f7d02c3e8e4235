import Crypto from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

// Runs against an SMTP server that misbehaves the way real relays do. The faults are the sink's,
// shared by the file's tests, which therefore run one after another.

describe('runs: e-mail delivery through a flaky SMTP server', () => {
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;
    beforeAll(async () => {
        t = await startTestServer({ config: { smtp: { connections: 4, sendTimeoutMs: 10_000, dataTimeoutMs: 10_000, retryAttempts: 10, retryForMs: 30_000, retryDelayMs: 100 } } });
        const account: TestAccount = await createAccount(t);
        api = runsApi(t, account);
    });
    afterAll(() => t.close());

    /** A workflow e-mailing `count` new recipients; `at(i)` is the i-th one's address. */
    const audience = async (count: number) => {
        const tag = Crypto.randomBytes(3).toString('hex');
        const at = (i: number) => `p${i}.${tag}@example.test`;
        const csv = ['name,email,age,city', ...Array.from({ length: count }, (_, i) => `P${i},${at(i)},30,Paris`)].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        /** How many e-mails each recipient got, in element order. */
        const received = () => Array.from({ length: count }, (_, i) => t.smtp.messages.filter((m) => m.to[0] === at(i)).length);
        return { workflowId, at, received };
    };

    it('delivers every row once when connections drop in the middle of messages', async () => {
        const { workflowId, received } = await audience(20);
        t.smtp.dropNext(3);
        const run = await api.run(workflowId);
        expect(run).toMatchObject({ status: 'SUCCESS', result: { emailsSent: 20 } });
        expect(received()).toEqual(Array(20).fill(1));
    });

    it('delivers every row when the SMTP server is down at the start of the run', async () => {
        const { workflowId, received } = await audience(30);
        const down = t.smtp.down(3000);
        const run = await api.run(workflowId);
        await down;
        expect(run).toMatchObject({ status: 'SUCCESS', result: { emailsSent: 30 } });
        expect(received()).toEqual(Array(30).fill(1));
    });

    it('retries 451s, and fails a 550 row at once with the server reply', async () => {
        const { workflowId, at, received } = await audience(10);
        t.smtp.reject(at(6));
        t.smtp.failNext(5);
        const run = await api.run(workflowId);
        expect(run).toMatchObject({ status: 'FAILED', result: { emailsSent: 9 } });
        expect(api.node(run, 'send').error).toMatch(/^1 of 10 e-mails failed: #6: the mail transport rejected it: .*550 mailbox unavailable$/);
        expect(received()).toEqual([1, 1, 1, 1, 1, 1, 0, 1, 1, 1]);
    });

    it('sends a run over several connections at once, recording each row', async () => {
        const { workflowId, received } = await audience(40);
        t.smtp.delay(50);
        try {
            const run = await api.run(workflowId);
            expect(run).toMatchObject({ status: 'SUCCESS', result: { emailsSent: 40 } });
            expect(api.node(run, 'send').output).toEqual({ emailsSent: 40 });
        } finally {
            t.smtp.delay(0);
        }

        expect(received()).toEqual(Array(40).fill(1));
        expect(t.smtp.peakWaiting).toBe(4);
    });

    it('cancels a run while its e-mails wait for a server that does not answer', async () => {
        const { workflowId } = await audience(3);
        t.smtp.delay(60_000);
        const before = t.smtp.attempts;
        try {
            const runId = await api.enqueue(workflowId);
            await api.waitFor(runId, () => t.smtp.attempts > before);
            expect((await api.call('POST', `/api/workflows/runs/${runId}/cancel`)).statusCode).toBe(202);
            const run = await api.waitFor(runId);
            expect(run).toMatchObject({ status: 'CANCELLED', result: { emailsSent: 0 } });
            expect(api.node(run, 'send')).toMatchObject({ status: 'FAILED', error: expect.stringMatching(/^run cancelled after 0 of 3 e-mails \(0 sent\)$/) });
        } finally {
            t.smtp.delay(0);
        }
    });
});
