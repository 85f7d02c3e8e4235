import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.js';
import { createAccount } from './fixtures.js';
import { type GatedSmtp, startGatedSmtp } from './gated-smtp.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

// Issue 20 §4: within one attempt, an e-mail sent again because its first copy went out and got no
// answer in time may arrive twice: the run says so. One refused outright did not arrive: no flag.

describe('runs: e-mails sent again within a run', () => {
    let smtp: GatedSmtp;
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;

    beforeAll(async () => {
        smtp = await startGatedSmtp();
        // A short wait for the end of the data, so that the held copy times out and is sent again.
        const smtpSettings = { ...loadConfig({}).smtp, connections: 1, dataTimeoutMs: 500, retryDelayMs: 50 };
        t = await startTestServer({ config: { smtpUrl: smtp.url, smtp: smtpSettings } });
        api = runsApi(t, await createAccount(t));
    });
    afterAll(async () => {
        await t.close();
        await smtp.close();
    });

    const workflow = async (prefix: string, rows: number) => {
        const csv = ['name,email,age,city', ...Array.from({ length: rows }, (_, i) => `P${i},${prefix}${i}@resend.example.test,${30 + i},Faro`)].join('\n');
        return api.workflow(newsletter(await api.upload(csv), 'age > 0'));
    };

    it('flags an e-mail sent again after its first copy went unanswered, which the server then accepted too', async () => {
        const base = smtp.accepted.length;
        const held = smtp.holdAt(smtp.received + 2);
        const runId = await api.enqueue(await workflow('late', 3));
        // The second e-mail's first copy waits past the deadline; its second copy is accepted; then so is the first.
        const first = await held;
        const second = smtp.holdAt(smtp.received + 1);
        (await second).answer(true);
        first.answer(true);

        const run = await api.waitFor(runId);
        expect(run).toMatchObject({ status: 'SUCCESS', error: null });
        expect(run.result).toEqual({ totalRows: 3, filteredOut: 0, emailsSent: 3, possiblyDuplicated: 1 });
        const ids = smtp.accepted.slice(base).map((m) => m.messageId);
        expect(ids.filter((id) => id === `<${runId}.send.1@flowctl.test>`)).toHaveLength(2);
        expect(ids).toHaveLength(4);
    });

    it('does not flag an e-mail sent again after the server refused its first copy', async () => {
        const base = smtp.accepted.length;
        const held = smtp.holdAt(smtp.received + 2);
        const runId = await api.enqueue(await workflow('refused', 3));
        (await held).answer(false);

        const run = await api.waitFor(runId);
        expect(run.result).toEqual({ totalRows: 3, filteredOut: 0, emailsSent: 3 });
        expect(smtp.accepted.length - base).toBe(3);
    });
});
