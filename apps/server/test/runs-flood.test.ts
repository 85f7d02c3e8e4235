import { afterEach, describe, expect, it } from 'vitest';

import type { Config } from '../src/config.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { createTestStore, startTestServer, store, type TestServer, type TestStore } from './harness.js';
import { ms, noMail, type RunJson, runsApi } from './run-fixtures.js';

// One account floods the queue with more workflows with work than a process has drain places
// (RUN_CONCURRENCY 1: 8 places). Agenda alone takes the oldest drain job first, and each drain keeps
// its place until its workflow has no run left: another account's run waited for most of the
// flood. Its run must start after a handful of the flood's runs, whatever the processes.

interface Size {
    workflows: number;
    runs: number;
}

const oneRow = 'name,email,age,city\nP,p@flood.example.test,40,Porto';

/** The flood: `size.workflows` workflows of A with `size.runs` runs each, all enqueued. Returns the run ids. */
const flood = async (a: ReturnType<typeof runsApi>, size: Size): Promise<string[]> => {
    const upload = await a.upload(oneRow);
    const workflows = await Promise.all(Array.from({ length: size.workflows }, () => a.workflow(noMail(upload))));
    const runs: string[] = [];
    for (let i = 0; i < size.runs; i++) {
        runs.push(...(await Promise.all(workflows.map((workflowId) => a.enqueue(workflowId)))));
    }

    return runs;
};

/** Resolves once the process (one that serves HTTP) has finished `count` runs, by its /metrics. */
const finished = async (t: TestServer, count: number) => {
    for (;;) {
        const text = await (await fetch(`${t.url}/metrics`)).text();
        if (Number(/^flowctl_runs_finished_total\{status="SUCCESS"\} (\d+)$/m.exec(text)?.[1] ?? 0) >= count) {
            return;
        }

        await new Promise((resolve) => setTimeout(resolve, 20));
    }
};

/** How many of the flood's runs started before `run` did. */
const startedBefore = (floodRuns: RunJson[], run: RunJson) => floodRuns.filter((r) => ms(r.startedAt) < ms(run.startedAt)).length;

describe('runs: one account floods the queue with many workflows', () => {
    let testStore: TestStore | null = null;
    const servers: TestServer[] = [];
    afterEach(async () => {
        for (const server of servers.splice(0).reverse()) {
            await server.close();
        }

        await testStore?.drop();
        testStore = null;
    });

    /**
     * Queues the flood and then B's run with no worker up, starts `workers` (roles), and checks that
     * B's run started after at most a few of the flood's runs; then, with the flood's backlog still
     * there and every drain place taken, B's second run likewise. A drain whose workflow has runs left
     * keeps its slot while only its own account waits: more runs per workflow than the places makes
     * B's second run wait for that whole workflow unless a place is given up for it.
     */
    const floodThenB = async (workers: Partial<Config>[], size: Size) => {
        testStore = await createTestStore();
        const setup = await startTestServer({ testStore, config: { role: 'api' } });
        const accounts: TestAccount[] = [await createAccount(setup), await createAccount(setup)];
        let a = runsApi(setup, accounts[0]!);
        let b = runsApi(setup, accounts[1]!);
        const aRuns = await flood(a, size);
        const bUpload = await b.upload(oneRow);
        const b1 = await b.enqueue(await b.workflow(noMail(bUpload)));
        // Another workflow: its run needs a drain job of its own, not the one that ran B's first run.
        const bWorkflow2 = await b.workflow(noMail(bUpload));
        // The embedded store has one owner: the API-only process leaves it to the next one.
        if (store === 'embedded') {
            await setup.close();
        } else {
            servers.push(setup);
        }

        for (const config of workers) {
            servers.push(await startTestServer({ testStore, config: { runConcurrency: 1, ...config } }));
        }

        const api = servers.find((server) => server.config.role !== 'worker')!;
        a = runsApi(api, accounts[0]!);
        b = runsApi(api, accounts[1]!);
        const endB1 = await b.waitFor(b1);
        expect(endB1.status).toBe('SUCCESS');
        // B's second run comes once B's drain is long gone and the flood has taken its place back.
        const worker = servers.at(-1)!;
        await finished(worker, 20);
        const b2 = await b.enqueue(bWorkflow2);
        const endB2 = await b.waitFor(b2);
        expect(endB2.status).toBe('SUCCESS');

        // One run polled at a time (the account's request rate is limited): the last queued, then each.
        await a.waitFor(aRuns.at(-1)!, undefined, 60_000);
        const ended: RunJson[] = [];
        for (const runId of aRuns) {
            ended.push(await a.waitFor(runId, undefined, 60_000));
        }

        expect(ended.every((run) => run.status === 'SUCCESS')).toBe(true);
        const atB2 = ended.filter((run) => ms(run.startedAt) < ms(endB2.enqueuedAt)).length;
        return { beforeB1: startedBefore(ended, endB1), duringB2: startedBefore(ended, endB2) - atB2, leftAfterB2: ended.length - startedBefore(ended, endB2) };
    };

    it("on one process: the other account's runs start after a few of the flood's, not after its backlog", async () => {
        const seen = await floodThenB([{ role: 'all' }], { workflows: 10, runs: 16 });
        // Before, B's first run waited for the flood's drain jobs queued before it (52 of the 160 runs
        // went first on PostgreSQL, 87 of 120 embedded with 24 workflows of 5 runs). Each of the 10 jobs
        // queued ahead of B's may start its run before B's is taken: 10 were seen on a loaded machine.
        expect(seen.beforeB1).toBeLessThanOrEqual(10);
        // With no drain place given up, its second one waited for the workflow holding the slot (17 runs).
        expect(seen.duringB2).toBeLessThanOrEqual(8);
        expect(seen.leftAfterB2).toBeGreaterThan(0);
    });

    // Only a real PostgreSQL server is shared by several processes.
    if (store === 'postgres') {
        it("on two worker processes: the other account's runs start after a few of the flood's", async () => {
            const seen = await floodThenB([{ role: 'worker' }, { role: 'all' }], { workflows: 20, runs: 12 });
            // Before, 74 of the 240 runs went first.
            expect(seen.beforeB1).toBeLessThanOrEqual(16);
            expect(seen.duringB2).toBeLessThanOrEqual(16);
            expect(seen.leftAfterB2).toBeGreaterThan(0);
        });
    }
});
