import Fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { type Child, MAIN, startChild, stopChild } from './child.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { startGatedSmtp } from './gated-smtp.js';
import { createTestStore, startTestServer, type TestStore } from './harness.js';
import { newsletter, type RunJson, runsApi, TERMINAL } from './run-fixtures.js';

// Issue 19 §5: a run that took its worker down is not resumed in a loop. A real server process with
// a small heap (and RUN_MEMORY_MB high, so the estimate lets the run start) runs out of memory
// loading an upload; a second one, alike, takes the run over once and fails it with the reason,
// stays up, and runs the workflow's next run and another workflow's.

/** The old generation of both processes: the server itself uses about 30–40 MB of it. */
const HEAP_MB = 96;
/** Rows of 8 small numbers: about 90 bytes each as the engine holds them, 16 bytes of CSV. */
const ROWS = 1_200_000;
const bigCsv = `a,b,c,d,e,f,g,h\n${'1,2,3,4,5,6,7,8\n'.repeat(ROWS)}`;

const heavyGraph = (uploadId: string) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'src', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'f0', type: 'FILTER', data: { source: '{{src.rows}}', expr: 'a == 1' } },
        { id: 'f1', type: 'FILTER', data: { source: '{{src.rows}}', expr: 'b == 2' } }
    ],
    edges: [
        { source: 'start', target: 'src' },
        { source: 'src', target: 'f0' },
        { source: 'src', target: 'f1' }
    ]
});

const childEnv = {
    NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
    RUN_MEMORY_MB: '4096',
    // A heartbeat every 2 s: the heap fills between two beats, so what names the cause is the record
    // written out of turn when a look finds the heap near its limit (worker/vitals.ts, NEAR_WATCH_MS).
    RUN_LEASE_MS: '6000'
};

/** The API of a server process over a real socket. */
const client = (url: string, account: TestAccount) => {
    const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${url}${path}`, {
            method,
            headers: { ...account.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            body: body === undefined ? undefined : JSON.stringify(body)
        });
        return { status: res.status, json: (await res.json()) as RunJson & { runId: string } };
    };
    return {
        call,
        async enqueue(workflowId: string): Promise<string> {
            const res = await call('POST', `/api/workflows/${workflowId}/run`);
            expect(res.status, JSON.stringify(res.json)).toBe(202);
            return res.json.runId;
        },
        async waitFor(runId: string, child: Child, timeoutMs = 60_000): Promise<RunJson> {
            const deadline = Date.now() + timeoutMs;
            for (;;) {
                const run = (await call('GET', `/api/workflows/runs/${runId}`)).json;
                if (TERMINAL.includes(run.status)) {
                    return run;
                }

                if (Date.now() > deadline) {
                    throw new Error(`run ${runId} is still ${run.status}:\n${child.output.join('')}`);
                }

                await new Promise((resolve) => setTimeout(resolve, 100));
            }
        }
    };
};

describe('runs: a crash loop ends', () => {
    it('fails a run whose worker ran out of memory at the first takeover, and the next worker stays up', async () => {
        expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
        const smtp = await startGatedSmtp();
        const testStore: TestStore = await createTestStore();
        const children: Child[] = [];
        try {
            // Set up in this process, then leave the store to the server processes.
            const setup = await startTestServer({ testStore, config: { smtpUrl: smtp.url } });
            const account = await createAccount(setup);
            const api = runsApi(setup, account);
            const bigUpload = await api.upload(bigCsv);
            const smallCsv = ['name,email,age,city', ...Array.from({ length: 3 }, (_, i) => `P${i},p${i}@crash-loop.example.test,${30 + i},Porto`)].join('\n');
            const smallUpload = await api.upload(smallCsv);
            // Its first run (the gate) sends one e-mail; its runs run one at a time, in order.
            const heavy = await api.workflow(newsletter(smallUpload, 'age == 30'));
            const other = await api.workflow(newsletter(smallUpload, 'age > 0'));
            await setup.close();

            const first = await startChild('all', testStore, smtp.url, childEnv);
            children.push(first);
            const a = client(first.url!, account);
            // The gate's one e-mail is held: the workflow's next runs wait behind it, whatever slots are free.
            const held = smtp.holdAt(smtp.received + 1);
            const gateRun = await a.enqueue(heavy);
            const message = await held;
            const big = await a.call('PATCH', `/api/workflows/${heavy}`, { graph: heavyGraph(bigUpload) });
            expect(big.status, JSON.stringify(big.json)).toBe(200);
            const doomed = await a.enqueue(heavy);
            // The next run of the same workflow reads the small upload (runs keep the graph they were enqueued with).
            const changed = await a.call('PATCH', `/api/workflows/${heavy}`, { graph: newsletter(smallUpload, 'age > 0') });
            expect(changed.status, JSON.stringify(changed.json)).toBe(200);
            const next = await a.enqueue(heavy);
            message.answer(true);

            // The run takes its worker down (or, were the heap big enough, ends: then the test is wrong).
            // No deadline here but the test's: the wait ends when the process does (its API stops
            // answering, and that rejection is the expected outcome), and a deadline's rejection would
            // be taken for it on a machine slow enough to need more than a minute to fill the heap.
            const ended = a.waitFor(doomed, first, Number.POSITIVE_INFINITY).then(
                (run) => {
                    throw new Error(`the run ended ${run.status} without taking its worker down: ${run.error}`);
                },
                () => {}
            );
            await Promise.race([first.exited, ended]);
            const died = first.output.join('');
            expect(died).toMatch(/JavaScript heap out of memory/);

            // A second process, alike: today it would resume the run and die the same way.
            const second = await startChild('all', testStore, smtp.url, childEnv);
            children.push(second);
            const b = client(second.url!, account);
            const failed = await b.waitFor(doomed, second);
            expect(failed.status).toBe('FAILED');
            expect(failed.error).toMatch(
                new RegExp(
                    `^its worker ran out of memory while running it \\(heap [\\d,]+ of ${HEAP_MB} MB, RSS [\\d,]+ MB at its last heartbeat\\), so it is not tried again\\. ` +
                        'Split the upload into smaller ones, have fewer nodes read its rows, or lower RUN_MEMORY_MB so that such a run fails before it loads'
                )
            );
            expect(failed.error).toContain(`retry it (POST /api/workflows/runs/${doomed}/retry)`);
            expect(failed.nodes.find((node) => node.nodeId === 'src')).toMatchObject({ status: 'FAILED', error: expect.stringMatching(/^interrupted: its worker ran out of memory/) });

            // The workflow's next run, another workflow's run: the process is up and runs them.
            expect(await b.waitFor(next, second)).toMatchObject({ status: 'SUCCESS', error: null, result: { emailsSent: 3 } });
            expect(await b.waitFor(await b.enqueue(other), second)).toMatchObject({ status: 'SUCCESS', result: { emailsSent: 3 } });
            expect((await b.waitFor(gateRun, second)).status).toBe('SUCCESS');
            expect(second.process.exitCode).toBeNull();
            await stopChild(second);

            // Exactly one takeover: the second process did not load the run.
            const after = await startTestServer({ testStore, config: { smtpUrl: smtp.url } });
            try {
                const [row] = await after.app.ctx.db.query<{ takeovers: number; given_up: boolean }>('SELECT takeovers, given_up FROM runs WHERE id = $1', [doomed]);
                expect(row).toEqual({ takeovers: 1, given_up: true });
            } finally {
                await after.close();
            }
        } catch (err) {
            throw new Error(`${(err as Error).message}\n${children.map((c, i) => `--- process ${i + 1}:\n${c.output.join('')}`).join('\n')}`, { cause: err });
        } finally {
            for (const child of children) {
                await stopChild(child, 'SIGKILL');
            }

            await smtp.close();
            await testStore.drop();
        }
    });
});
