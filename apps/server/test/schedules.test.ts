import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { takeTick } from '../src/store/schedules.js';
import { startGatedSmtp } from './gated-smtp.js';
import { type RunJson, runsApi, TERMINAL } from './run-fixtures.js';

const scheduled = (schedule: unknown) => ({ nodes: [{ id: 'start', type: 'TRIGGER', data: { schedule } }], edges: [] });
const EVERY_2S = { cron: '*/2 * * * * *', timezone: 'UTC' };

describe('schedules', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;
    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
        api = runsApi(t, account);
    });
    afterAll(() => t.close());

    const listRuns = async (workflowId: string): Promise<RunJson[]> => {
        const res = await api.call('GET', `/api/workflows/${workflowId}/runs?limit=500`);
        expect(res.statusCode, res.payload).toBe(200);
        return res.json;
    };

    /** Polls the run list until `done` holds. */
    const runsUntil = async (workflowId: string, done: (runs: RunJson[]) => boolean, timeoutMs = 20_000): Promise<RunJson[]> => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const runs = await listRuns(workflowId);
            if (done(runs)) {
                return runs;
            }

            if (Date.now() > deadline) {
                throw new Error(`runs of ${workflowId} after ${timeoutMs} ms: ${JSON.stringify(runs)}`);
            }

            await new Promise((resolve) => setTimeout(resolve, 50));
        }
    };

    it.each([
        [{ cron: '* * * * * * *' }, 'graph.nodes[0].data.schedule.cron'],
        [{ cron: '61 * * * *' }, 'graph.nodes[0].data.schedule.cron'],
        [{ cron: '*/0 * * * *' }, 'graph.nodes[0].data.schedule.cron'],
        [{ cron: '0 9 * * *', timezone: '' }, 'graph.nodes[0].data.schedule.timezone'],
        [{ cron: '0 9 * * *', timezone: 'Mars/Olympus' }, 'graph.nodes[0].data.schedule.timezone'],
        ['0 9 * * *', 'graph.nodes[0].data.schedule']
    ])('refuses schedule %j at create and PATCH: 400 naming %s', async (schedule, path) => {
        const res = await api.call('POST', '/api/workflows', { name: 'bad', graph: scheduled(schedule) });
        expect(res.statusCode).toBe(400);
        expect(res.json.details).toEqual([{ path, message: expect.any(String) }]);
        expect(res.json.message).toContain(path);

        const workflowId = await api.workflow({ nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] });
        const patched = await api.call('PATCH', `/api/workflows/${workflowId}`, { graph: scheduled(schedule) });
        expect(patched.statusCode).toBe(400);
        expect(patched.json.details).toEqual([{ path, message: expect.any(String) }]);
    });

    it('refuses a schedule firing more often than SCHEDULE_MIN_INTERVAL_SECONDS', async () => {
        const strict = await startTestServer({ config: { schedule: { catchUpSeconds: 3600, minIntervalSeconds: 60 } } });
        try {
            const other = await createAccount(strict);
            const res = await strict.request({ method: 'POST', url: '/api/workflows', headers: other.headers, payload: { name: 'often', graph: scheduled({ cron: '*/30 * * * * *' }) } });
            expect(res.statusCode).toBe(400);
            expect(res.json.details).toEqual([{ path: 'graph.nodes[0].data.schedule.cron', message: expect.stringContaining('every 30 s') }]);
        } finally {
            await strict.close();
        }
    });

    it('shows the schedule with nextRunAt on get and list; the runs carry trigger {type: schedule, scheduledFor}, one per tick', async () => {
        const workflowId = await api.workflow(scheduled(EVERY_2S));
        const got = await api.call('GET', `/api/workflows/${workflowId}`);
        expect(got.json.schedule).toEqual({ cron: '*/2 * * * * *', timezone: 'UTC', nextRunAt: expect.any(String), paused: false, skippedTicks: 0 });
        expect(new Date(got.json.schedule.nextRunAt).getUTCSeconds() % 2).toBe(0);
        expect(got.json.paused).toBe(false);
        const listed = (await api.call('GET', '/api/workflows')).json.find((w: { id: string }) => w.id === workflowId);
        expect(listed.schedule.nextRunAt).toEqual(expect.any(String));

        const runs = await runsUntil(workflowId, (r) => r.filter((run) => TERMINAL.includes(run.status)).length >= 2);
        for (const run of runs) {
            expect(run.trigger).toEqual({ type: 'schedule', scheduledFor: expect.any(String) });
            expect(new Date(run.trigger.scheduledFor as string).getUTCMilliseconds()).toBe(0);
        }
        const ticks = runs.map((r) => r.trigger.scheduledFor);
        expect(new Set(ticks).size).toBe(ticks.length);
        const detail = await api.get(runs[0]!.runId);
        expect(detail.trigger).toEqual(runs[0]!.trigger);

        // A manual run says so.
        const manual = await api.get(await api.enqueue(workflowId));
        expect(manual.trigger).toEqual({ type: 'manual' });
        await api.call('PATCH', `/api/workflows/${workflowId}`, { paused: true });
    });

    it('pauses and resumes with PATCH {paused}: no tick while paused, no backlog after', async () => {
        const workflowId = await api.workflow(scheduled(EVERY_2S));
        await runsUntil(workflowId, (r) => r.length >= 1);
        const paused = await api.call('PATCH', `/api/workflows/${workflowId}`, { paused: true });
        expect(paused.statusCode, paused.payload).toBe(200);
        expect(paused.json.schedule).toMatchObject({ paused: true, nextRunAt: null });
        const before = (await runsUntil(workflowId, (r) => r.every((run) => TERMINAL.includes(run.status)))).length;
        // Ticks go by: another schedule of the same cron, left running, gets two more runs meanwhile.
        const clock = await api.workflow(scheduled(EVERY_2S));
        const clockTicks = async () => (await listRuns(clock)).length;
        const start = await clockTicks();
        await runsUntil(clock, (r) => r.length >= start + 2);
        await api.call('PATCH', `/api/workflows/${clock}`, { paused: true });
        const during = await listRuns(workflowId);
        expect(during.filter((r) => r.trigger.type === 'schedule')).toHaveLength(before);

        const resumed = await api.call('PATCH', `/api/workflows/${workflowId}`, { paused: false });
        expect(resumed.json.schedule).toMatchObject({ paused: false, nextRunAt: expect.any(String) });
        expect(new Date(resumed.json.schedule.nextRunAt).getTime()).toBeGreaterThan(Date.now() - 2_000);
        const after = await runsUntil(workflowId, (r) => r.filter((run) => run.trigger.type === 'schedule').length > before);
        const newTicks = after.filter((r) => r.trigger.type === 'schedule').slice(0, after.length - during.length);
        // The first run after resuming is for a tick after the resume, not one missed while paused.
        for (const run of newTicks) {
            expect(new Date(run.trigger.scheduledFor as string).getTime()).toBeGreaterThanOrEqual(new Date(resumed.json.schedule.nextRunAt).getTime());
        }
        await api.call('PATCH', `/api/workflows/${workflowId}`, { paused: true });
    });

    it('PATCH {paused} on a workflow without a schedule or hook is a 400 saying so', async () => {
        const workflowId = await api.workflow({ nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] });
        const res = await api.call('PATCH', `/api/workflows/${workflowId}`, { paused: true });
        expect(res.statusCode).toBe(400);
        expect(res.json.message).toContain('no schedule or hook');
    });

    it('skips and counts a tick while a run of the workflow is PENDING or RUNNING, instead of queueing it', async () => {
        // A run held RUNNING at a mail server that does not answer its e-mail yet spans several ticks.
        const gated = await startGatedSmtp();
        const held = await startTestServer({ config: { smtpUrl: gated.url } });
        try {
            const owner = await createAccount(held);
            const heldApi = runsApi(held, owner);
            const uploadId = await heldApi.upload('name,email\nAda,ada@example.test\n');
            const graph = {
                nodes: [
                    { id: 'start', type: 'TRIGGER', data: { schedule: EVERY_2S } },
                    { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
                    { id: 'mail', type: 'OUTPUT', data: { forEach: '{{people.rows}}', to: '{{item.email}}', subject: 'Hi', body: 'Hello' } }
                ],
                edges: [
                    { source: 'start', target: 'people' },
                    { source: 'people', target: 'mail' }
                ]
            };
            const hold = gated.holdAt(1);
            const workflowId = await heldApi.workflow(graph);
            const { answer } = await hold;
            const schedule = async () => (await heldApi.call('GET', `/api/workflows/${workflowId}`)).json.schedule;
            while ((await schedule()).skippedTicks < 2) {
                await new Promise((resolve) => setTimeout(resolve, 100));
            }
            const during = (await heldApi.call('GET', `/api/workflows/${workflowId}/runs`)).json as RunJson[];
            expect(during).toHaveLength(1);
            expect(during[0]?.status).toBe('RUNNING');
            await heldApi.call('PATCH', `/api/workflows/${workflowId}`, { paused: true });
            const skipped = (await schedule()).skippedTicks;
            answer(true);
            await heldApi.waitFor(during[0]!.runId);
            // Nothing was queued behind it: still one run once it ended.
            expect((await heldApi.call('GET', `/api/workflows/${workflowId}/runs`)).json).toHaveLength(1);
            expect(skipped).toBeGreaterThanOrEqual(2);
            expect(gated.accepted).toHaveLength(1);
        } finally {
            await held.close();
            await gated.close();
        }
    });

    it('deleting the workflow stops its schedule at once', async () => {
        const workflowId = await api.workflow(scheduled(EVERY_2S));
        await runsUntil(workflowId, (r) => r.length >= 1);
        const [due] = await t.app.ctx.db.query<{ next_run_at: Date }>('SELECT next_run_at FROM workflow_triggers WHERE workflow_id = $1', [workflowId]);
        expect((await api.call('DELETE', `/api/workflows/${workflowId}`)).statusCode).toBe(204);
        expect(await t.app.ctx.db.query('SELECT 1 FROM workflow_triggers WHERE workflow_id = $1', [workflowId])).toEqual([]);
        // Another process that read the tick before the delete takes it after: nothing is inserted.
        const late = await takeTick(t.app.ctx.db, workflowId, due!.next_run_at, due!.next_run_at, new Date(due!.next_run_at.getTime() + 2_000), 'run_late');
        expect(late).toMatchObject({ handled: false, created_at: null });
        expect(await t.app.ctx.db.query('SELECT 1 FROM runs WHERE id = $1', ['run_late'])).toEqual([]);
    });
});
