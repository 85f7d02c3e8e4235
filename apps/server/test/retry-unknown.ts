import Fs from 'node:fs';

import { expect } from 'vitest';

import { type Child, closeChildren, MAIN, stopChild } from './child.js';
import { createAccount } from './fixtures.js';
import { createTestStore, startTestServer, store } from './harness.js';
import { newsletter, type NodeJson, type RunJson, runsApi } from './run-fixtures.js';
import { copiesPerRecipient, messageId, workerChildren } from './worker-children.js';

// The scenario of runs-retry-unknown*.test.ts (one file per variant, so that the two run beside each
// other). Issue 26: a worker SIGKILLed while its relay has e-mails it has not answered yet; the relay then
// accepts them, and answers 451 to everything while the worker restarts, so the resumed run sends
// those e-mails again (their outcome unknown), is refused, and ends FAILED with possiblyDuplicated.
// The relay recovers and the run is retried: the e-mails whose first copy arrived must not go out
// again under the retry's own Message-ID, which no receiver can recognise as a duplicate.

const ROWS = 200;
const CONNECTIONS = 8;
/** About where the worker dies: e-mails accepted before it. */
const KILL_AFTER = 40;
/** The settings, with short waits between tries so that 160 refused rows fail quickly. */
const WORKER_ENV = { SMTP_CONNECTIONS: String(CONNECTIONS), SMTP_RETRY_FOR_MS: '3000', SMTP_RETRY_ATTEMPTS: '2', SMTP_RETRY_DELAY_MS: '10' };

/** The newsletter, plus (`after`) a node that runs once the e-mails are sent: skipped when they fail. */
const graphOf = (uploadId: string, after: boolean) => {
    const graph = newsletter(uploadId, 'age > 0');
    if (after) {
        graph.nodes.push({ id: 'after', type: 'FILTER', data: { source: '{{people.rows}}', expr: 'age > 30' } } as (typeof graph.nodes)[number]);
        graph.edges.push({ source: 'send', target: 'after' });
    }

    return graph;
};

const send = (run: RunJson): NodeJson => run.nodes.find((node) => node.nodeId === 'send') as NodeJson;

/**
 * `rederive`: the run stops before a node other than OUTPUT succeeds, so its retry executes the
 * graph again (store/interruptions.ts retrySource); otherwise its retry sends the refused e-mails.
 */
export const killRefuseRetry = async (rederive: boolean) => {
    expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
    const testStore = await createTestStore();
    // Embedded: the database belongs to one process, the worker's, which serves the API too.
    const api = await startTestServer({ testStore, config: store === 'postgres' ? { role: 'api' as const } : {} });
    const relay = api.smtp;
    const children: Child[] = [];
    try {
        const account = await createAccount(api);
        const local = runsApi(api, account);
        const recipients = Array.from({ length: ROWS }, (_, i) => `person${i}@unknown.example.test`);
        const csv = ['name,email,age,city', ...recipients.map((email, i) => `P${i},${email},${30 + i},Porto`)].join('\n');
        const workflowId = await local.workflow(graphOf(await local.upload(csv), rederive));
        if (store === 'embedded') {
            await api.app.stop();
        }

        const workers = workerChildren(children, api, account, testStore, relay.url, WORKER_ENV);

        // A relay that takes 30 ms per message.
        relay.delay(30);
        await workers.start();
        const runId = await workers.client.enqueue(workflowId);
        await relay.waitFor(KILL_AFTER, 60_000);
        // Every connection has handed the relay an e-mail it has not answered: the worker dies then.
        await relay.hold(CONNECTIONS);
        await stopChild(children.at(-1)!, 'SIGKILL');
        const beforeKill = relay.messages.length;
        relay.release();
        await relay.waitFor(beforeKill + CONNECTIONS);

        // While the worker restarts, the relay refuses everything for a while.
        relay.failNext(Number.POSITIVE_INFINITY, 451);
        await workers.start();
        const failed = await workers.ended(runId);
        expect(failed.status).toBe('FAILED');
        expect(failed.result.possiblyDuplicated).toBe(CONNECTIONS);
        expect(failed.result.emailsSent).toBe(beforeKill);
        expect(relay.messages).toHaveLength(beforeKill + CONNECTIONS);
        // The held e-mails arrived, whatever their second copies were answered: the run counts them
        // apart, neither sent nor failed, and its node's error does not name them among the failures.
        const unknown = relay.messages.slice(beforeKill).map((m) => recipients.indexOf(m.to[0] ?? ''));
        expect(unknown.filter((index) => index < 0)).toEqual([]);
        const refused = ROWS - beforeKill - CONNECTIONS;
        expect(failed.result.unknownOutcome).toBe(CONNECTIONS);
        expect(send(failed).output).toMatchObject({ emailsSent: beforeKill, unknownOutcome: CONNECTIONS });
        const error = send(failed).error ?? '';
        const [failures = '', maybe = ''] = error.split(`. ${CONNECTIONS} more may have arrived`);
        expect(failures).toMatch(new RegExp(`^${refused} of ${ROWS} e-mails failed: #\\d+: `));
        expect(maybe, error).toMatch(/^ and are not counted as failed \(/);
        for (const index of unknown) {
            expect(failures).not.toContain(`#${index}:`);
            expect(maybe).toContain(`#${index}`);
        }


        // The relay recovers; the run is retried.
        relay.failNext(0);
        const res = await workers.client.retry(runId);
        expect(res.status, JSON.stringify(res.json)).toBe(202);
        const retried = await workers.ended(res.json.runId);
        expect(retried).toMatchObject({ status: 'SUCCESS', retryOf: runId, error: null });

        // Every recipient has exactly one copy: the first copies of the unknown e-mails did arrive.
        const copies = copiesPerRecipient(relay.messages);

        expect([...copies].filter(([, n]) => n !== 1)).toEqual([]);
        expect(new Set(copies.keys())).toEqual(new Set(recipients));
        const fromRetry = relay.messages.filter((m) => messageId(m.raw).startsWith(`<${retried.runId}.`));
        expect(fromRetry).toHaveLength(ROWS - beforeKill - CONNECTIONS);
        expect(retried.result.emailsSent).toBe(fromRetry.length);
        // The retry says what it left out, and why.
        expect(send(retried).output).toMatchObject({ emailsSent: fromRetry.length, unknownOutcome: CONNECTIONS });
        expect(retried.result.unknownOutcome).toBe(CONNECTIONS);

        if (!rederive) {
            const again = await workers.client.retry(runId);
            expect(again.status).toBe(409);
            expect(again.json.message).toBe(
                `Run '${runId}' has no failed e-mails left to retry: ${CONNECTIONS} e-mails whose outcome is unknown are not sent again, as a copy may have arrived (invalid addresses are not retried: fix the data and run the workflow again)`
            );
        }
    } finally {
        await closeChildren(children, api, testStore);
    }
};
