import Crypto from 'node:crypto';

import type { JobNotification } from 'agenda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, store, type TestServer } from './harness.js';
import { triggerOnly } from './upload-fixtures.js';

// An enqueue's drain job reaches the workers by a notification on the job channel, not at their next
// poll (up to a second later). On PostgreSQL the enqueue statement sends it itself (store/queue.ts
// ANNOUNCED); embedded, the process announces it in memory.

describe('an enqueue announces its drain job to the workers', () => {
    let t: TestServer;
    let account: TestAccount;
    const heard: JobNotification[] = [];

    beforeAll(async () => {
        // No worker: nothing takes the job before the test reads it.
        t = await startTestServer({ config: { role: 'api' } });
        account = await createAccount(t);
        t.app.ctx.queue.channel.subscribe(async (notification) => {
            heard.push(notification);
        });
    });
    afterAll(() => t.close());

    const enqueue = async (workflowId: string) => {
        const res = await t.request({ method: 'POST', url: `/api/workflows/${workflowId}/run`, headers: account.headers });
        expect(res.statusCode).toBe(202);
    };

    const drainJobs = async (workflowId: string) =>
        (await t.app.ctx.db.query<{ id: string }>(`SELECT id::text FROM agenda_jobs WHERE name = 'drain-workflow' AND data ->> 'workflowId' = $1`, [workflowId])).map(
            (row) => row.id
        );

    it('the job it adds, and again the one still waiting at the next enqueue', async () => {
        const workflowId = (await t.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: 'W', graph: triggerOnly() } })).json
            .workflowId;
        await enqueue(workflowId);
        const [job] = await drainJobs(workflowId);
        expect(job).toBeDefined();
        await expect.poll(() => heard.filter((n) => String(n.jobId) === job).length).toBe(1);
        const notification = heard.find((n) => String(n.jobId) === job)!;
        expect(notification.jobName).toBe('drain-workflow');
        expect(notification.nextRunAt).toBeInstanceOf(Date);
        expect(Number.isNaN(notification.nextRunAt!.getTime())).toBe(false);

        // No second job: the waiting one is announced again.
        await enqueue(workflowId);
        expect(await drainJobs(workflowId)).toEqual([job]);
        await expect.poll(() => heard.filter((n) => String(n.jobId) === job).length).toBe(2);
    });

    it("announces nothing when the workflow is another account's, even with its job waiting", async () => {
        const workflowId = (await t.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: 'Mine', graph: triggerOnly() } })).json
            .workflowId;
        await enqueue(workflowId);
        const [waiting] = await drainJobs(workflowId);
        await expect.poll(() => heard.some((n) => String(n.jobId) === waiting)).toBe(true);

        const intruder = await createAccount(t);
        const before = heard.length;
        expect((await t.request({ method: 'POST', url: `/api/workflows/${workflowId}/run`, headers: intruder.headers })).statusCode).toBe(404);
        // An enqueue of the intruder's own, heard after it, shows the channel had time to deliver.
        const own = (await t.request({ method: 'POST', url: '/api/workflows', headers: intruder.headers, payload: { name: 'Theirs', graph: triggerOnly() } })).json.workflowId;
        expect((await t.request({ method: 'POST', url: `/api/workflows/${own}/run`, headers: intruder.headers })).statusCode).toBe(202);
        const [job] = await drainJobs(own);
        await expect.poll(() => heard.slice(before).map((n) => String(n.jobId))).toEqual([job]);
    });

    // Only a real PostgreSQL server is shared by several processes.
    if (store === 'postgres') {
        it('wakes the drain that lingers on the workflow in another process, and adds no drain job', async () => {
            const other = await startTestServer({ testStore: t.testStore, config: { role: 'api' } });
            try {
                await other.app.ctx.queue.open();
                const workflowId = (await t.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: 'W', graph: triggerOnly() } })).json
                    .workflowId;
                // A drain of the other process holds the workflow's lease, out of runs.
                await t.app.ctx.db.query("INSERT INTO workflow_leases (workflow_id, holder, token, expires_at) VALUES ($1, 'other', $2, now() + interval '1 hour')", [
                    workflowId,
                    Crypto.randomUUID()
                ]);
                const waker = other.app.ctx.queue.wakes.open(workflowId);
                const woken = waker.linger(20_000, new AbortController().signal);
                await enqueue(workflowId);
                expect(await woken).toBe('woken');
                waker.close();
                expect(await drainJobs(workflowId)).toEqual([]);
                // The wake is the drains' alone: no subscriber of the channel hears it.
                expect(heard.some((n) => n.jobName === 'wake-drain')).toBe(false);
            } finally {
                await other.close();
            }
        });
    }
});
