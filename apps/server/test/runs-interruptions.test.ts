import Fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { type Child, childRunEnded, closeChildren, MAIN, remote, startChild, stopChild } from './child.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { type GatedMessage, type GatedSmtp, startGatedSmtp } from './gated-smtp.js';
import { createTestStore, startTestServer, store, type TestServer, type TestStore } from './harness.js';
import { newsletter, type RunJson, runsApi, TERMINAL } from './run-fixtures.js';

// Issue 20 §1: a run survives any number of interruptions that made progress, and one given up
// after a crash loop leaves exactly its unsent rows to POST …/retry. Workers are real processes,
// SIGKILLed while the SMTP server holds a message (accepted once the worker is dead: its outcome is
// unknown to the worker that resumes the run).

const ROWS = 20;

interface Client {
    enqueue(workflowId: string): Promise<string>;
    get(runId: string): Promise<RunJson & { result: { possiblyDuplicated?: number; unknownOutcome?: number }; retryOf?: string }>;
    retry(runId: string): Promise<{ status: number; json: RunJson & { message?: string } }>;
}

/**
 * One API and a worker that can be killed and started again. Embedded: the worker process serves
 * the API too (the database belongs to one process). PostgreSQL: the API stays in this process.
 */
const cluster = async (smtp: GatedSmtp) => {
    const testStore: TestStore = await createTestStore();
    const api: TestServer = await startTestServer({ testStore, config: { smtpUrl: smtp.url, ...(store === 'postgres' ? { role: 'api' as const } : {}) } });
    const account: TestAccount = await createAccount(api);
    const local = runsApi(api, account);
    const recipients = Array.from({ length: ROWS }, (_, i) => `person${i}@loop.example.test`);
    const csv = ['name,email,age,city', ...recipients.map((email, i) => `P${i},${email},${30 + i},Porto`)].join('\n');
    const workflowId = await local.workflow(newsletter(await local.upload(csv), 'age > 0'));
    if (store === 'embedded') {
        await api.app.stop();
    }

    const children: Child[] = [];
    let client: Client = {
        enqueue: local.enqueue,
        get: local.get,
        retry: async (runId) => {
            const res = await local.call('POST', `/api/workflows/runs/${runId}/retry`);
            return { status: res.statusCode, json: res.json };
        }
    };
    const worker = () => children.at(-1)!;

    return {
        recipients,
        workflowId,
        client: () => client,
        async startWorker() {
            const child = await startChild(store === 'embedded' ? 'all' : 'worker', testStore, smtp.url);
            children.push(child);
            if (store === 'embedded') {
                const r = remote(child.url!, account);
                client = { enqueue: r.enqueue, get: r.get, retry: (runId) => r.call('POST', `/api/workflows/runs/${runId}/retry`) };
            }
        },
        /** The held message, or an error if the run ends first (it was given up, say). */
        async heldOrEnded<T>(held: Promise<T>, runId: string): Promise<T> {
            let arrived: T | undefined;
            void held.then((message) => {
                arrived = message;
            });
            for (;;) {
                const run = await client.get(runId);
                if (arrived !== undefined) {
                    return arrived;
                }

                if (TERMINAL.includes(run.status)) {
                    throw new Error(`run ${runId} ended ${run.status} before the worker was killed again: ${run.error}`);
                }

                await new Promise((resolve) => setTimeout(resolve, 100));
            }
        },
        /** SIGKILLs the worker while the server holds `message`, then has the server accept it. */
        async killAt(held: { answer(accept: boolean): void }) {
            await stopChild(worker(), 'SIGKILL');
            held.answer(true);
        },
        async waitFor(runId: string) {
            return childRunEnded(client.get, runId, children);
        },
        close: () => closeChildren(children, api, testStore)
    };
};

/** Copies the server accepted per recipient. */
const copiesByRecipient = (messages: GatedMessage[]): Map<string, number> => {
    const copies = new Map<string, number>();
    for (const message of messages) {
        copies.set(message.to, (copies.get(message.to) ?? 0) + 1);
    }

    return copies;
};

describe('runs: interruptions', { timeout: 400_000 }, () => {
    it('finishes a run whose worker is killed 4 times while it makes progress: every row arrives, duplicates flagged', async () => {
        expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
        const smtp = await startGatedSmtp();
        const c = await cluster(smtp);
        try {
            // Each worker sends 3 e-mails, then dies while the server accepts its fourth.
            let held = smtp.holdAt(smtp.received + 4);
            await c.startWorker();
            const runId = await c.client().enqueue(c.workflowId);
            for (let kill = 0; kill < 4; kill++) {
                const message = await c.heldOrEnded(held, runId);
                if (kill < 3) {
                    held = smtp.holdAt(smtp.received + 4);
                }

                await c.killAt(message);
                await c.startWorker();
            }

            const run = await c.waitFor(runId);
            expect(run.error).toBeNull();
            expect(run.status).toBe('SUCCESS');
            // The e-mail under way at each kill was sent again with its Message-ID, and flagged.
            expect(run.result).toEqual({ totalRows: ROWS, filteredOut: 0, emailsSent: ROWS, possiblyDuplicated: 4 });
            const copies = copiesByRecipient(smtp.accepted);
            expect(new Set(copies.keys())).toEqual(new Set(c.recipients));
            expect([...copies.values()].filter((n) => n > 1)).toEqual([2, 2, 2, 2]);
            expect(new Set(smtp.accepted.map((m) => m.messageId)).size).toBe(ROWS);
        } finally {
            await c.close();
            await smtp.close();
        }
    });

    it('gives a run up after 3 interruptions in a row without a new e-mail, and its retry sends exactly the rows never accepted', async () => {
        expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
        const smtp = await startGatedSmtp();
        const c = await cluster(smtp);
        try {
            // The first worker sends 5 e-mails and dies on the sixth: progress, no strike.
            let held = smtp.holdAt(smtp.received + 6);
            await c.startWorker();
            const runId = await c.client().enqueue(c.workflowId);
            // Then three workers in a row die on their first e-mail: a crash loop.
            for (let kill = 0; kill < 4; kill++) {
                const message = await c.heldOrEnded(held, runId);
                if (kill < 3) {
                    held = smtp.holdAt(smtp.received + 1);
                }

                await c.killAt(message);
                await c.startWorker();
            }

            const failed = await c.waitFor(runId);
            expect(failed.status).toBe('FAILED');
            expect(failed.error).toMatch(
                /^the run was interrupted 3 times in a row without sending a new e-mail \(last: its worker stopped \(killed, or crashed\)\), so it is not tried again; retry it/
            );
            expect(failed.result.emailsSent).toBe(5);
            // The OUTPUT node's figure comes from the same records as the run's.
            expect(failed.nodes.find((n) => n.nodeId === 'send')).toMatchObject({ status: 'FAILED', output: { emailsSent: 5 } });
            // The e-mail the last worker left unanswered may have arrived: counted apart, and not retried.
            expect(failed.result.unknownOutcome).toBe(1);
            expect(failed.nodes.find((n) => n.nodeId === 'send')?.output).toMatchObject({ unknownOutcome: 1 });
            const before = copiesByRecipient(smtp.accepted);
            expect(before.size).toBeLessThan(ROWS);

            const retry = await c.client().retry(runId);
            expect(retry.status, JSON.stringify(retry.json)).toBe(202);
            const retried = await c.waitFor(retry.json.runId);
            expect(retried).toMatchObject({ status: 'SUCCESS', retryOf: runId, error: null });
            // Exactly the rows the server had not accepted, each once; none it had.
            const fromRetry = smtp.accepted.filter((m) => m.messageId.startsWith(`<${retried.runId}.`));
            expect(fromRetry.map((m) => m.to).sort()).toEqual(c.recipients.filter((to) => !before.has(to)).sort());
            expect(retried.result.emailsSent).toBe(fromRetry.length);
            expect(retried.result.unknownOutcome).toBe(1);
            expect(new Set(copiesByRecipient(smtp.accepted).keys())).toEqual(new Set(c.recipients));
        } finally {
            await c.close();
            await smtp.close();
        }
    });
});
