import Crypto from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DRAIN_JOB } from '../src/store/queue.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { type RunJson, runsApi } from './run-fixtures.js';

// Schedules and hooks with revisions and lingering drains: a run a schedule or a hook starts
// executes the workflow's current revision, and wakes the drain holding the workflow's lease like
// any enqueue; pausing is no revision, and If-Match guards it like any PATCH.

const trigger = (data: object, subject = 'one') => ({
    nodes: [
        { id: 'trigger', type: 'TRIGGER', data },
        { id: 'mail', type: 'OUTPUT', data: { forEach: '{{trigger.rows}}', to: '{{item.email}}', subject, body: 'hi' } }
    ],
    edges: [{ source: 'trigger', target: 'mail' }]
});
/** A TRIGGER alone: one without a hook has no rows to send. */
const only = (data: object) => ({ nodes: [{ id: 'trigger', type: 'TRIGGER', data }], edges: [] });
const EVERY_SECOND = { cron: '* * * * * *', timezone: 'UTC' };

describe('schedules and hooks with revisions', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;
    beforeAll(async () => {
        t = await startTestServer({ config: { publicUrl: 'https://flowctl.example' } });
        account = await createAccount(t);
        api = runsApi(t, account);
    });
    afterAll(() => t.close());

    const patch = (workflowId: string, payload: object, ifMatch?: string) =>
        t.request({ method: 'PATCH', url: `/api/workflows/${workflowId}`, headers: { ...account.headers, ...(ifMatch ? { 'if-match': ifMatch } : {}) }, payload });
    const postHook = (hookUrl: string, rows: object[]) =>
        t.request({ method: 'POST', url: new URL(hookUrl).pathname, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(rows) });

    const firstRun = async (workflowId: string): Promise<RunJson> => {
        for (;;) {
            const [run] = (await api.call('GET', `/api/workflows/${workflowId}/runs?order=asc`)).json as RunJson[];
            if (run) {
                return run;
            }

            await new Promise((resolve) => setTimeout(resolve, 50));
        }
    };

    it('a hook run and a scheduled run execute the revision current when they start, shown on detail and list', async () => {
        const created = await api.call('POST', '/api/workflows', { name: 'hooked', graph: trigger({ webhook: true }) });
        expect(created.statusCode, created.payload).toBe(201);
        const { workflowId, hookUrl } = created.json as { workflowId: string; hookUrl: string };
        const changed = await patch(workflowId, { graph: trigger({ webhook: true }, 'two') });
        expect(changed.json.revision).toBe(2);

        const started = await postHook(hookUrl, [{ email: 'ada@example.test' }]);
        expect(started.statusCode, started.payload).toBe(202);
        const run = await api.waitFor(started.json.runId);
        expect(run).toMatchObject({ status: 'SUCCESS', revision: 2, trigger: { type: 'webhook' } });
        expect((await api.call('GET', `/api/workflows/${workflowId}/runs`)).json).toEqual([expect.objectContaining({ revision: 2, trigger: { type: 'webhook' } })]);

        const scheduledId = await api.workflow(only({}));
        expect((await patch(scheduledId, { graph: only({ schedule: EVERY_SECOND }) })).json.revision).toBe(2);
        const tick = await firstRun(scheduledId);
        expect(tick).toMatchObject({ revision: 2, trigger: { type: 'schedule', scheduledFor: expect.any(String) } });
        expect(await api.waitFor(tick.runId)).toMatchObject({ revision: 2, trigger: { type: 'schedule' } });
        await api.call('DELETE', `/api/workflows/${scheduledId}`);
    });

    it('PATCH {paused} makes no revision; with a stale If-Match it is a 412 and pauses nothing, with the current one it pauses', async () => {
        const workflowId = await api.workflow(only({ schedule: { cron: '0 9 * * *' } }));
        const stale = await patch(workflowId, { paused: true }, '"r7"');
        expect(stale.statusCode, stale.payload).toBe(412);
        expect(stale.json.revision).toBe(1);
        expect((await api.call('GET', `/api/workflows/${workflowId}`)).json).toMatchObject({ revision: 1, paused: false });

        const before = await api.call('GET', `/api/workflows/${workflowId}`);
        const paused = await patch(workflowId, { paused: true }, '"r1"');
        expect(paused.statusCode, paused.payload).toBe(200);
        // Still revision 1, but another answer: a cache revalidating the earlier ETag gets the new one,
        // not a 304 that would keep showing the workflow as running.
        expect(paused.headers.etag).toMatch(/^"r1\.[\w-]{12}"$/);
        expect(paused.headers.etag).not.toBe(before.headers.etag);
        const revalidated = await t.request({ method: 'GET', url: `/api/workflows/${workflowId}`, headers: { ...account.headers, 'if-none-match': before.headers.etag as string } });
        expect(revalidated.statusCode).toBe(200);
        expect(revalidated.json).toMatchObject({ paused: true });
        const unchanged = await t.request({ method: 'GET', url: `/api/workflows/${workflowId}`, headers: { ...account.headers, 'if-none-match': paused.headers.etag as string } });
        expect(unchanged.statusCode).toBe(304);
        expect(paused.json).toMatchObject({ revision: 1, paused: true, schedule: { paused: true, nextRunAt: null } });
        expect((await api.call('GET', `/api/workflows/${workflowId}/revisions`)).json).toHaveLength(1);

        // Paused with a rename: the rename is a revision, the pause is not another. If-Match compares
        // the revision only, so the ETag read before the pause still guards it, and is stale after.
        const both = await patch(workflowId, { name: 'renamed', paused: false }, before.headers.etag as string);
        expect(both.json).toMatchObject({ revision: 2, name: 'renamed', paused: false });
        expect((await patch(workflowId, { name: 'stale' }, before.headers.etag as string)).statusCode).toBe(412);
    });

    /** A drain of this process holding the workflow's lease, lingering: resolves when it is woken. */
    const lingeringDrain = async (workflowId: string) => {
        await t.app.ctx.db.query("INSERT INTO workflow_leases (workflow_id, holder, token, expires_at) VALUES ($1, 'test', $2, now() + interval '1 hour')", [
            workflowId,
            Crypto.randomUUID()
        ]);
        const waker = t.app.ctx.queue.wakes.open(workflowId);
        const woken = waker.linger(120_000, new AbortController().signal);
        return { woken, close: () => waker.close() };
    };

    const drainJobs = async (workflowId: string) =>
        (await t.app.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM agenda_jobs WHERE name = '${DRAIN_JOB}' AND data ->> 'workflowId' = $1`, [workflowId]))[0]?.n;

    it('a run started by a hook or a schedule while a drain lingers on the workflow wakes that drain, adding no drain job', async () => {
        const created = await api.call('POST', '/api/workflows', { name: 'hooked', graph: trigger({ webhook: true }) });
        const { workflowId, hookUrl } = created.json as { workflowId: string; hookUrl: string };
        const hookDrain = await lingeringDrain(workflowId);
        expect((await postHook(hookUrl, [{ email: 'ada@example.test' }])).statusCode).toBe(202);
        expect(await hookDrain.woken).toBe('woken');
        expect(await drainJobs(workflowId)).toBe(0);
        hookDrain.close();
        await api.call('DELETE', `/api/workflows/${workflowId}`);

        const scheduledId = await api.workflow(only({}));
        const tickDrain = await lingeringDrain(scheduledId);
        await patch(scheduledId, { graph: only({ schedule: EVERY_SECOND }) });
        expect(await tickDrain.woken).toBe('woken');
        expect(await firstRun(scheduledId)).toMatchObject({ status: 'PENDING', trigger: { type: 'schedule' } });
        expect(await drainJobs(scheduledId)).toBe(0);
        tickDrain.close();
        await api.call('DELETE', `/api/workflows/${scheduledId}`);
    });
});
