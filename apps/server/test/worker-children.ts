import type { TestAccount } from './fixtures.js';
import type { TestServer, TestStore } from './harness.js';
import { type Child, childRunEnded, remote, startChild } from './child.js';
import { type RunJson, runsApi } from './run-fixtures.js';
import type { ReceivedMail } from './smtp.js';

// Tests that SIGKILL the worker: it runs as a child process (on the embedded store it serves the API
// too, as the database is its alone; on PostgreSQL the in-process server stays the API).

export type Run = RunJson & { retryOf?: string };

export interface RunsClient {
    enqueue(workflowId: string): Promise<string>;
    get(runId: string): Promise<Run>;
    retry(runId: string): Promise<{ status: number; json: Run & { message?: string } }>;
}

/**
 * Workers started one after another on `testStore`, each added to `children` (which the test closes);
 * `client` reaches whichever process serves the API now.
 */
export const workerChildren = (children: Child[], api: TestServer, account: TestAccount, testStore: TestStore, smtpUrl: string, env: NodeJS.ProcessEnv) => {
    const local = runsApi(api, account);
    let client: RunsClient = {
        enqueue: local.enqueue,
        get: local.get,
        retry: async (runId) => {
            const res = await local.call('POST', `/api/workflows/runs/${runId}/retry`);
            return { status: res.statusCode, json: res.json };
        }
    };

    return {
        get client(): RunsClient {
            return client;
        },
        async start(): Promise<Child> {
            const embedded = testStore.databaseUrl === null;
            const child = await startChild(embedded ? 'all' : 'worker', testStore, smtpUrl, env);
            children.push(child);
            if (embedded) {
                const r = remote(child, account);
                client = { enqueue: r.enqueue, get: r.get, retry: (runId) => r.call('POST', `/api/workflows/runs/${runId}/retry`) };
            }

            return child;
        },
        ended: (runId: string) => childRunEnded((id) => client.get(id), runId, children)
    };
};

export const messageId = (raw: string): string => /^Message-ID:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? '';

/** Copies received per recipient. */
export const copiesPerRecipient = (messages: ReceivedMail[]): Map<string, number> => {
    const copies = new Map<string, number>();
    for (const message of messages) {
        const to = message.to[0] ?? '';
        copies.set(to, (copies.get(to) ?? 0) + 1);
    }

    return copies;
};
