import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { type RunJson, runsApi, TERMINAL } from './run-fixtures.js';

// One account's big run must not take the service from anyone else: the issue's "1,000,000 rows and
// ten FILTERs reading {{src.rows}}", scaled to what a test may take.

const ROWS = 1_000_000;
const FILTERS = 5;
const tinyRows = `a,b\n${'1,2\n'.repeat(ROWS)}`;

const heavyGraph = (uploadId: string) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'src', type: 'DATA_SOURCE', data: { uploadId } },
        ...Array.from({ length: FILTERS }, (_, i) => ({ id: `f${i}`, type: 'FILTER', data: { source: '{{src.rows}}', expr: i % 2 === 0 ? 'a == 1' : 'b > 5' } }))
    ],
    edges: [{ source: 'start', target: 'src' }, ...Array.from({ length: FILTERS }, (_, i) => ({ source: 'src', target: `f${i}` }))]
});

describe('runs: a heavy run leaves the service to everyone else', () => {
    let t: TestServer;
    let heavy: ReturnType<typeof runsApi>;
    let other: TestAccount;
    let uploadId: string;
    beforeAll(async () => {
        t = await startTestServer();
        heavy = runsApi(t, await createAccount(t));
        other = await createAccount(t);
        uploadId = await heavy.upload(tinyRows);
    });
    afterAll(() => t.close());

    /** Another account's requests, one after another, until `done`; each answer's status, and whether it came while the run ran. */
    const othersWhile = async (done: Promise<unknown>) => {
        let finished = false;
        done.finally(() => {
            finished = true;
        });
        const statuses: number[] = [];
        let duringRun = 0;
        while (!finished) {
            const [list, ready] = await Promise.all([fetch(`${t.url}/api/workflows`, { headers: other.headers }), fetch(`${t.url}/readyz`)]);
            statuses.push(list.status, ready.status);
            await Promise.all([list.arrayBuffer(), ready.arrayBuffer()]);
            duringRun += finished ? 0 : 1;
        }

        return { statuses, duringRun };
    };

    it('ends while another account’s requests and /readyz keep answering', async () => {
        const runId = await heavy.enqueue(await heavy.workflow(heavyGraph(uploadId)));
        const run = heavy.waitFor(runId, (r) => TERMINAL.includes(r.status), 150_000);
        const others = await othersWhile(run);
        const ended: RunJson = await run;

        expect(ended.status, ended.error ?? '').toBe('SUCCESS');
        expect(ended.result).toEqual({ totalRows: ROWS, filteredOut: (FILTERS >> 1) * ROWS, emailsSent: 0 });
        expect(heavy.node(ended, 'f0').output.items.count).toBe(ROWS);
        expect(others.duringRun).toBeGreaterThan(0);
        expect(new Set(others.statuses)).toEqual(new Set([200]));
    });

    it('stops a heavy run on cancel', async () => {
        const runId = await heavy.enqueue(await heavy.workflow(heavyGraph(uploadId)));
        await heavy.waitFor(runId, (r) => r.status !== 'PENDING', 60_000);
        const cancel = await heavy.call('POST', `/api/workflows/runs/${runId}/cancel`);
        expect(cancel.statusCode, cancel.payload).toBe(202);

        const ended = await heavy.waitFor(runId, (r) => TERMINAL.includes(r.status), 60_000);
        expect(ended.status).toBe('CANCELLED');
        expect(ended.nodes.filter((node) => node.status === 'SKIPPED').length).toBeGreaterThan(0);
    });
});

describe('runs: a run over RUN_MEMORY_MB', () => {
    it('fails before loading, saying how big the data was and what to change, and stays failed after a restart', async () => {
        const t = await startTestServer({ config: { runMemoryMb: 1 } });
        let restarted: TestServer | null = null;
        try {
            const account = await createAccount(t);
            const api = runsApi(t, account);
            const csv = `a,b\n${Array.from({ length: 20_000 }, (_, i) => `${i},row ${i}`).join('\n')}`;
            const workflowId = await api.workflow(heavyGraph(await api.upload(csv)));
            const run = await api.run(workflowId);

            expect(run.status).toBe('FAILED');
            expect(run.error).toMatch(/^the run would need about \d+ MB of memory, more than RUN_MEMORY_MB \(1 MB\): upload 'upl_[^']+' has 20,000 rows × 2 columns /);
            expect(run.error).toContain(`held by 1 DATA_SOURCE, ${FILTERS} FILTER nodes`);
            expect(run.error).toContain('Split the file into smaller uploads, have fewer nodes read its rows, or raise RUN_MEMORY_MB.');
            expect(api.node(run, 'src')).toMatchObject({ status: 'FAILED', error: run.error });
            expect(api.node(run, 'f0').status).toBe('SKIPPED');
            expect(run.result).toEqual({ totalRows: 0, filteredOut: 0, emailsSent: 0 });

            // Stopped, not closed: closing would drop the store.
            await t.app.stop();
            await t.smtp.close();
            restarted = await startTestServer({ testStore: t.testStore, config: { runMemoryMb: 1 } });
            // The restarted worker has drained what it found; the run is as it was left.
            const again = await runsApi(restarted, account).get(run.runId);
            expect(again).toEqual(run);

            // Within the budget, the same workflow runs.
            await restarted.close();
            restarted = await startTestServer({ testStore: t.testStore });
            const fits = await runsApi(restarted, account).run(workflowId);
            expect(fits.status).toBe('SUCCESS');
        } finally {
            await restarted?.close();
            await t.testStore.drop();
        }
    });
});
