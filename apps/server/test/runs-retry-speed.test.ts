import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.js';
import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

// A retry sends like a run: the pool's connections at once, each row with its own retries, so one
// recipient still deferred holds up nobody else.

describe('runs: a retry sends at full speed', () => {
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;

    beforeAll(async () => {
        t = await startTestServer({ config: { smtp: { ...loadConfig({}).smtp, connections: 4, retryDelayMs: 50, retryForMs: 60_000, retryAttempts: 1000 } } });
        api = runsApi(t, await createAccount(t));
    });
    afterAll(() => t.close());

    const failedRun = async (domain: string, count: number) => {
        const recipients = Array.from({ length: count }, (_, i) => `r${i}@${domain}`);
        const csv = ['name,email,age', ...recipients.map((email, i) => `R${i},${email},${20 + i}`)].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        t.smtp.failNext(count, 550);
        const failed = await api.run(workflowId);
        expect(failed.result.emailsSent).toBe(0);
        return { recipients, failed };
    };

    it('has several e-mails in flight at once, and shows the rows it retried', async () => {
        const { recipients, failed } = await failedRun('speed.example.test', 12);
        t.smtp.delay(100);
        try {
            const retry = await api.waitFor((await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`)).json.runId);
            expect(retry).toMatchObject({ status: 'SUCCESS', result: { totalRows: 12, emailsSent: 12 } });
            expect(t.smtp.peakWaiting).toBeGreaterThan(1);
        } finally {
            t.smtp.delay(0);
        }

        const received = t.smtp.messages.filter((m) => m.to[0]?.endsWith('@speed.example.test')).map((m) => m.to[0]);
        expect(received.sort()).toEqual([...recipients].sort());
    });

    it('sends the other rows while one recipient is still deferred (4xx), then that one', async () => {
        const { recipients, failed } = await failedRun('busy.example.test', 10);
        const [busy, ...others] = recipients as [string, ...string[]];
        t.smtp.defer(busy);
        const before = t.smtp.messages.length;
        const retryId = (await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`)).json.runId;
        const arrived = () => t.smtp.messages.filter((m) => m.to[0]?.endsWith('@busy.example.test')).map((m) => m.to[0]);
        // Every other row arrives while the first is still answered 450.
        await t.smtp.waitFor(before + others.length, 15_000);
        expect(arrived()).not.toContain(busy);
        expect(t.smtp.deferrals).toBeGreaterThan(0);
        t.smtp.undefer(busy);
        const retry = await api.waitFor(retryId);
        expect(retry).toMatchObject({ status: 'SUCCESS', result: { totalRows: 10, emailsSent: 10 } });
        expect(arrived().sort()).toEqual([...recipients].sort());
    });
});
