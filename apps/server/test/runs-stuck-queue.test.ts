import { performance } from 'node:perf_hooks';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { newId } from '../src/ids.js';
import { DRAIN_JOB } from '../src/store/queue.js';
import { enqueueRun } from '../src/store/runs.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, store, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

// Issue 20 §2 and issue 22 §1: a pause longer than a drain job's lock lifetime, between the moment
// Agenda locks the job and the moment it would run it (a frozen database, an event loop held by a big
// run), made Agenda 6.2.6 drop the job while still counting it as locked. With RUN_CONCURRENCY such
// leaks no run ever started again. Here the pause is this process's event loop, held synchronously
// right after the job is announced: Agenda takes its lock time, then nothing runs until it is stale.

const LEASE_MS = 1000;

/** Holds this process's event loop (and so the server in it) for `ms`. */
const holdEventLoop = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
        // Nothing else may run: that is the point.
    }
};

describe('runs: a job queue that stalls past the lock lifetime', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;

    beforeAll(async () => {
        // One slot: a single leaked lock stops the worker.
        t = await startTestServer({ config: { runConcurrency: 1, runLeaseMs: LEASE_MS } });
        account = await createAccount(t);
        api = runsApi(t, account);
    });
    afterAll(() => t.close());

    it('keeps taking runs after the event loop was held past the lock lifetime of a job just announced', async () => {
        const csv = ['name,email,age,city', 'A,a@stall.example.test,30,Porto', 'B,b@stall.example.test,31,Porto'].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        expect((await api.run(workflowId)).status).toBe('SUCCESS');

        for (let i = 0; i < 3; i++) {
            // The drain of the run before lets go of the workflow just after the run ends; until then
            // it would take the new run itself, and no job would be queued for it.
            while ((await t.app.ctx.db.query('SELECT 1 FROM workflow_leases WHERE workflow_id = $1', [workflowId])).length > 0) {
                await new Promise((resolve) => setTimeout(resolve, 20));
            }

            const runId = newId('run');
            const row = await enqueueRun(t.app.ctx.db, runId, account.accountId, workflowId);
            expect(row?.job_id).toEqual(expect.any(String));
            // The worker locks the job as it is announced (its lock time is taken now), then stalls.
            t.app.ctx.queue.announce(row!.job_id!, DRAIN_JOB);
            holdEventLoop(LEASE_MS * 1.5);

            const run = await api.waitFor(runId);
            expect(run).toMatchObject({ status: 'SUCCESS', error: null, result: { emailsSent: 2 } });
        }

        // And it still serves runs enqueued the ordinary way; /readyz says the worker works.
        expect((await api.run(workflowId)).result.emailsSent).toBe(2);
        const ready = await t.request({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(200);
    });
});

// The worker's /readyz tells whether runs wait while it has free slots. Here another session holds the
// drain job's row locked, so no worker can take it (PostgreSQL: the embedded store has one session).
if (store === 'postgres') {
    describe('runs: /readyz of a worker whose runs wait', () => {
        it('answers 503 saying so while runs wait and slots are free, and 200 once they are taken', async () => {
            const t = await startTestServer({ config: { runConcurrency: 1, runLeaseMs: LEASE_MS } });
            const blocker = new pg.Client({ connectionString: t.testStore.databaseUrl! });
            await blocker.connect();
            try {
                const account = await createAccount(t);
                const api = runsApi(t, account);
                const csv = ['name,email,age,city', 'A,a@ready.example.test,30,Porto'].join('\n');
                const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
                // A run whose drain job is due in 3 s, so that the row is locked here before any worker looks.
                const runId = newId('run');
                await blocker.query("INSERT INTO runs (id, account_id, workflow_id, revision, status) SELECT $1, account_id, id, revision, 'PENDING' FROM workflows WHERE id = $2", [
                    runId,
                    workflowId
                ]);
                const job = await blocker.query<{ id: string }>(
                    "INSERT INTO agenda_jobs (name, priority, next_run_at, type, data) VALUES ($1, 0, now() + interval '3 seconds', 'normal', jsonb_build_object('workflowId', $2::text)) RETURNING id",
                    [DRAIN_JOB, workflowId]
                );
                await blocker.query('BEGIN');
                await blocker.query('SELECT 1 FROM agenda_jobs WHERE id = $1 FOR UPDATE', [job.rows[0]!.id]);

                let ready = await t.request({ method: 'GET', url: '/readyz' });
                while (ready.statusCode === 200) {
                    await new Promise((resolve) => setTimeout(resolve, 200));
                    ready = await t.request({ method: 'GET', url: '/readyz' });
                }

                expect(ready.statusCode).toBe(503);
                expect(ready.json.message).toMatch(/^The run worker is stuck: runs have waited \d+ s for a worker while 8 of its 8 drain places are free$/);

                await blocker.query('ROLLBACK');
                expect((await api.waitFor(runId)).status).toBe('SUCCESS');
                while (ready.statusCode !== 200) {
                    await new Promise((resolve) => setTimeout(resolve, 200));
                    ready = await t.request({ method: 'GET', url: '/readyz' });
                }

                expect(ready.json).toEqual({ status: 'ready' });
            } finally {
                await blocker.end();
                await t.close();
            }
        });
    });
}
