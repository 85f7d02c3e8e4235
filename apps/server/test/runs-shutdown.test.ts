import { describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { loadConfig } from '../src/config.js';
import { startGatedSmtp } from './gated-smtp.js';
import { createTestStore, startTestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

describe('runs: graceful shutdown', () => {
    it('hands a running run back at the next e-mail and the next start finishes it, sending each e-mail once', { timeout: 90_000 }, async () => {
        const smtp = await startGatedSmtp();
        const testStore = await createTestStore();
        try {
            // One e-mail at a time, so that holding one holds the run.
            const config = { smtpUrl: smtp.url, smtp: { ...loadConfig({}).smtp, connections: 1 } };
            const first = await startTestServer({ testStore, config });
            const account = await createAccount(first);
            let api = runsApi(first, account);
            const recipients = Array.from({ length: 12 }, (_, i) => `p${i}@shutdown.example.test`);
            const csv = ['name,email,age,city', ...recipients.map((email, i) => `P${i},${email},${40 + i},Porto`)].join('\n');
            const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));

            const fourth = smtp.holdAt(4);
            const runId = await api.enqueue(workflowId);
            const held = await fourth;
            const stopping = first.close();
            // The message being sent when the stop began is accepted; no other one is started.
            held.answer(true);
            await stopping;
            expect(smtp.accepted.map((m) => m.to)).toEqual(recipients.slice(0, 4));

            // Until a worker executes it again, the run waits PENDING, with what it sent so far.
            const apiOnly = await startTestServer({ testStore, config: { ...config, role: 'api' } });
            try {
                const waiting = await runsApi(apiOnly, account).get(runId);
                expect(waiting).toMatchObject({ status: 'PENDING', result: { emailsSent: 4 } });
                expect(runsApi(apiOnly, account).node(waiting, 'send')).toMatchObject({ status: 'PENDING', output: { emailsSent: 4 } });
            } finally {
                await apiOnly.close();
            }

            const second = await startTestServer({ testStore, config });
            try {
                api = runsApi(second, account);
                const run = await api.waitFor(runId);
                expect(run.status).toBe('SUCCESS');
                expect(run.result.emailsSent).toBe(12);
                // The e-mails waiting for a connection at the stop never went out: the journal says so.
                expect(run.result).not.toHaveProperty('possiblyDuplicated');
                expect(api.node(run, 'send')).toMatchObject({ status: 'SUCCESS', error: null, output: { emailsSent: 12 } });
                expect(smtp.accepted.map((m) => m.to)).toEqual(recipients);
            } finally {
                await second.close();
            }
        } finally {
            await testStore.drop();
            await smtp.close();
        }
    });
});
