import { describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { loadConfig } from '../src/config.js';
import { type GatedSmtp, startGatedSmtp } from './gated-smtp.js';
import { createTestStore, startTestServer, type TestStore } from './harness.js';
import { rawRequest } from './raw-http.js';
import { newsletter, runsApi } from './run-fixtures.js';

/** A server running a run of 12 e-mails whose fourth the relay holds, one e-mail at a time (so holding one holds the run). */
const startHeldRun = async (smtp: GatedSmtp, testStore: TestStore, domain: string) => {
    const config = { smtpUrl: smtp.url, smtp: { ...loadConfig({}).smtp, connections: 1 } };
    const server = await startTestServer({ testStore, config });
    const account = await createAccount(server);
    const api = runsApi(server, account);
    const recipients = Array.from({ length: 12 }, (_, i) => `p${i}@${domain}`);
    const csv = ['name,email,age,city', ...recipients.map((email, i) => `P${i},${email},${40 + i},Porto`)].join('\n');
    const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
    const fourth = smtp.holdAt(4);
    const runId = await api.enqueue(workflowId);
    return { server, config, account, recipients, runId, held: await fourth };
};

describe('runs: graceful shutdown', () => {
    it('hands a running run back at the next e-mail and the next start finishes it, sending each e-mail once', async () => {
        const smtp = await startGatedSmtp();
        const testStore = await createTestStore();
        try {
            const { server: first, config, account, recipients, runId, held } = await startHeldRun(smtp, testStore, 'shutdown.example.test');
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
                const api = runsApi(second, account);
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

    it('starts no e-mail once the stop has begun, while a request under way keeps the HTTP server open', async () => {
        const smtp = await startGatedSmtp();
        const testStore = await createTestStore();
        try {
            const { server, account, recipients, runId, held } = await startHeldRun(smtp, testStore, 'shutdown-held.example.test');
            // A body that stops arriving: hapi's stop waits up to 10 s for its request, once it has begun.
            const begun = new Promise((resolve) => server.app.server!.listener.once('request', resolve));
            let answered = false;
            const giveUp = new AbortController();
            const slow = rawRequest(server.url, {
                method: 'POST',
                path: '/api/workflows',
                headers: { ...account.headers, 'content-type': 'application/json', 'content-length': '200' },
                chunks: ['{"name": "half a bo'],
                signal: giveUp.signal
            })
                .catch(() => null)
                .finally(() => {
                    answered = true;
                });
            await begun;
            const stopping = server.close();
            held.answer(true);
            // The run is handed back at once (or, were the stop to wait for the HTTP server first, it runs on).
            const deadline = Date.now() + 60_000;
            let row: { status: string; handed_back: boolean } | null = null;
            while (Date.now() < deadline) {
                row = await server.app.ctx.db.one<{ status: string; handed_back: boolean }>('SELECT status, handed_back FROM runs WHERE id = $1', [runId]);
                if (row?.handed_back || row?.status === 'SUCCESS') {
                    break;
                }

                await new Promise((resolve) => setTimeout(resolve, 20));
            }

            expect(row).toEqual({ status: 'PENDING', handed_back: true });
            expect(answered, 'the request was still under way').toBe(false);
            expect(smtp.accepted.map((m) => m.to)).toEqual(recipients.slice(0, 4));
            // The stop ends once the request does (here its client gives up, not to wait for hapi's 10 s).
            giveUp.abort();
            await Promise.all([stopping, slow]);
            expect(smtp.accepted).toHaveLength(4);
        } finally {
            await testStore.drop();
            await smtp.close();
        }
    });
});
