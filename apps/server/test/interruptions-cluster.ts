import { type Child, childRunEnded, closeChildren, remote, startChild, stopChild } from './child.js';
import { createAccount, type TestAccount } from './fixtures.js';
import type { GatedMessage, GatedSmtp } from './gated-smtp.js';
import { createTestStore, startTestServer, store, type TestServer, type TestStore } from './harness.js';
import { newsletter, type RunJson, runsApi, TERMINAL } from './run-fixtures.js';

// The cluster of runs-interruptions*.test.ts (one file per test, so that they run beside each other).
// Issue 20 §1: a run survives any number of interruptions that made progress, and one given up
// after a crash loop leaves exactly its unsent rows to POST …/retry. Workers are real processes,
// SIGKILLed while the SMTP server holds a message (accepted once the worker is dead: its outcome is
// unknown to the worker that resumes the run).

export const ROWS = 20;

interface Client {
    enqueue(workflowId: string): Promise<string>;
    get(runId: string): Promise<RunJson & { result: { possiblyDuplicated?: number; unknownOutcome?: number }; retryOf?: string }>;
    retry(runId: string): Promise<{ status: number; json: RunJson & { message?: string } }>;
}

/**
 * One API and a worker that can be killed and started again. Embedded: the worker process serves
 * the API too (the database belongs to one process). PostgreSQL: the API stays in this process.
 */
export const cluster = async (smtp: GatedSmtp) => {
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
                const r = remote(child, account);
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
export const copiesByRecipient = (messages: GatedMessage[]): Map<string, number> => {
    const copies = new Map<string, number>();
    for (const message of messages) {
        copies.set(message.to, (copies.get(message.to) ?? 0) + 1);
    }

    return copies;
};
