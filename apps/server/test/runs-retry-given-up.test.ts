import Fs from 'node:fs';
import Path from 'node:path';

import { describe, expect, it } from 'vitest';

import { type Child, closeChildren, MAIN, stopChild } from './child.js';
import { createAccount } from './fixtures.js';
import { createTestStore, startTestServer, store } from './harness.js';
import { type NodeJson, type RunJson, runsApi } from './run-fixtures.js';
import { copiesPerRecipient, messageId, workerChildren } from './worker-children.js';

// Issue 26, as an outside tester found it: a worker SIGKILLed while its relay holds 8 e-mails
// unanswered (they arrive), then a relay answering 451 to everything while the run is resumed and
// killed again until it is given up (3 interruptions without a new e-mail). Each resumed attempt sent
// the 8 again, and was refused. The given-up run must count them as unknownOutcome and its retry,
// once the relay recovers, must not send them again under its own Message-ID.

const ROWS = 40;
const CONNECTIONS = 8;
/**
 * A refused copy waits a minute before its next try, so each worker is killed once every e-mail was
 * refused and none is under way: its journal's last word on each is a refusal (the tester's 5 s wait,
 * with the 1 s default between tries, landed there too).
 */
const WORKER_ENV = { SMTP_CONNECTIONS: String(CONNECTIONS), SMTP_RETRY_DELAY_MS: '60000' };

/** TRIGGER → DATA_SOURCE → OUTPUT, as in the report. */
const graphOf = (uploadId: string) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'send', type: 'OUTPUT', data: { forEach: '{{people.rows}}', to: '{{item.email}}', subject: 'Hello {{item.name}}', body: 'Hi {{item.name}}' } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'send' }
    ]
});

const send = (run: RunJson): NodeJson => run.nodes.find((node) => node.nodeId === 'send') as NodeJson;

/** Elements an attempt's journal (worker/delivery-journal.ts) notes as refused by the relay. */
const refusedIn = (file: string): number => new Set(Fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.startsWith('R '))).size;

describe('runs: the retry of a run given up while its relay refused the resent e-mails', () => {
    it('counts the e-mails whose first copy may have arrived as unknownOutcome, and its retry does not send them', async () => {
        expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
        const testStore = await createTestStore();
        // Embedded: the database belongs to one process, the worker's, which serves the API too.
        const api = await startTestServer({ testStore, config: store === 'postgres' ? { role: 'api' as const } : {} });
        const relay = api.smtp;
        const children: Child[] = [];
        try {
            const account = await createAccount(api);
            const local = runsApi(api, account);
            const recipients = Array.from({ length: ROWS }, (_, i) => `person${i}@given-up.example.test`);
            const csv = ['name,email', ...recipients.map((email, i) => `P${i},${email}`)].join('\n');
            const workflowId = await local.workflow(graphOf(await local.upload(csv)));
            if (store === 'embedded') {
                await api.app.stop();
            }

            const workers = workerChildren(children, api, account, testStore, relay.url, WORKER_ENV);
            const journal = Path.join(testStore.dataDir, 'journal');
            const seen = new Set<string>();
            /** Resolves once a new attempt at the run noted `count` e-mails refused. */
            const refusedByNewAttempt = async (runId: string, count: number) => {
                const deadline = Date.now() + 60_000;
                for (;;) {
                    const files = Fs.existsSync(journal) ? Fs.readdirSync(journal).filter((name) => name.startsWith(`${runId}.`) && !seen.has(name)) : [];
                    const file = files.find((name) => refusedIn(Path.join(journal, name)) >= count);
                    if (file) {
                        seen.add(file);
                        return;
                    }

                    if (Date.now() > deadline) {
                        throw new Error(`no new attempt at run ${runId} was refused ${count} e-mails`);
                    }

                    await new Promise((resolve) => setTimeout(resolve, 50));
                }
            };

            // 1–3. The relay holds the first e-mail of each connection unanswered; the worker dies then,
            // and the relay accepts them: 8 e-mails arrived whose 250 the worker never read.
            const held = relay.hold(CONNECTIONS);
            await workers.start();
            const runId = await workers.client.enqueue(workflowId);
            await held;
            await stopChild(children.at(-1)!, 'SIGKILL');
            for (const name of Fs.existsSync(journal) ? Fs.readdirSync(journal) : []) {
                seen.add(name);
            }

            relay.release();
            await relay.waitFor(CONNECTIONS);

            // 4–5. The relay refuses everything. Twice a worker resumes the run, sends every e-mail (the 8
            // again, with their Message-IDs), is refused and dies; the third gives the run up (3
            // interruptions in a row without a new e-mail).
            relay.failNext(Number.POSITIVE_INFINITY, 451);
            for (let kill = 0; kill < 2; kill++) {
                await workers.start();
                await refusedByNewAttempt(runId, ROWS);
                await stopChild(children.at(-1)!, 'SIGKILL');
            }

            await workers.start();
            const failed = await workers.ended(runId);
            expect(failed.status).toBe('FAILED');
            expect(failed.error).toMatch(/^the run was interrupted 3 times in a row without sending a new e-mail \(last: .*\), so it is not tried again; retry it/);
            expect(relay.messages).toHaveLength(CONNECTIONS);
            // The 8 went out again (refused): possibly duplicated, and of unknown outcome, not sent nor failed.
            expect(failed.result).toMatchObject({ emailsSent: 0, possiblyDuplicated: CONNECTIONS, unknownOutcome: CONNECTIONS });
            expect(send(failed).output).toMatchObject({ emailsSent: 0, unknownOutcome: CONNECTIONS });

            // 6. The relay recovers; the run is retried.
            relay.failNext(0);
            const res = await workers.client.retry(runId);
            expect(res.status, JSON.stringify(res.json)).toBe(202);
            const retried = await workers.ended(res.json.runId);
            expect(retried).toMatchObject({ status: 'SUCCESS', retryOf: runId, error: null });

            // Every recipient has exactly one copy: the first copies of the 8 did arrive.
            const copies = copiesPerRecipient(relay.messages);

            expect([...copies].filter(([, n]) => n !== 1)).toEqual([]);
            expect(new Set(copies.keys())).toEqual(new Set(recipients));
            const fromRetry = relay.messages.filter((m) => messageId(m.raw).startsWith(`<${retried.runId}.`));
            expect(fromRetry).toHaveLength(ROWS - CONNECTIONS);
            expect(retried.result).toMatchObject({ emailsSent: ROWS - CONNECTIONS, unknownOutcome: CONNECTIONS });
            expect(send(retried).output).toMatchObject({ emailsSent: ROWS - CONNECTIONS, unknownOutcome: CONNECTIONS });
        } catch (err) {
            // The processes' logs say what each attempt did.
            throw new Error(`${(err as Error).message}\n${children.map((c, i) => `--- process ${i + 1}:\n${c.output.join('')}`).join('\n')}`, { cause: err });
        } finally {
            await closeChildren(children, api, testStore);
        }
    });
});
