import { afterAll, describe, expect, it } from 'vitest';

import { type Child, startChild, stopChild } from './child.js';
import { createAccount } from './fixtures.js';
import { createTestStore, startTestServer, store, type TestServer, type TestStore } from './harness.js';
import { type RunJson, runsApi } from './run-fixtures.js';

// Exactly one run per tick with several worker processes, killed and restarted around ticks: 1 API
// (this process) + 3 worker processes on PostgreSQL, a `*/2 * * * * *` schedule for about 24 s.
// PostgreSQL only: the embedded store belongs to one process. On both stores: a server stopped over
// several ticks runs only the most recent one when it starts again.

const TICK_MS = 2_000;
const TICKS = 12;

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe('a schedule across a restart', () => {
    it('runs only the most recent tick missed while no worker ran, and counts the others skipped', async () => {
        const testStore = await createTestStore();
        let server = await startTestServer({ testStore });
        try {
            const account = await createAccount(server);
            const workflowId = await runsApi(server, account).workflow({ nodes: [{ id: 'start', type: 'TRIGGER', data: { schedule: { cron: '*/2 * * * * *' } } }], edges: [] });
            const state = () =>
                server.app.ctx.db.query<{ next_run_at: Date; skipped_ticks: string }>('SELECT next_run_at, skipped_ticks FROM workflow_triggers WHERE workflow_id = $1', [workflowId]);
            const first = (await state())[0]!.next_run_at.getTime();
            while ((await state())[0]!.next_run_at.getTime() <= first) {
                await new Promise((resolve) => setTimeout(resolve, 50));
            }
            await server.app.stop();
            await server.smtp.close();
            const stoppedAt = Date.now();
            // Three ticks or more pass with no worker.
            await sleepUntil(stoppedAt + 3 * TICK_MS + 100);
            server = await startTestServer({ testStore });
            const api = runsApi(server, account);
            const list = async (): Promise<RunJson[]> => (await api.call('GET', `/api/workflows/${workflowId}/runs?limit=500`)).json;
            while ((await list()).length < 2) {
                await new Promise((resolve) => setTimeout(resolve, 50));
            }
            const restarted = await api.call('PATCH', `/api/workflows/${workflowId}`, { paused: true });
            expect(restarted.statusCode).toBe(200);
            const [row] = await state();
            const ticks = (await list()).map((run) => new Date(run.trigger.scheduledFor as string).getTime()).sort();
            // The tick before the stop, then (after catching up) ticks each run once; the ticks of the
            // downtime but the last are counted skipped.
            expect(ticks[0]).toBe(first);
            const handled = Math.round((row!.next_run_at.getTime() - first) / TICK_MS);
            expect(new Set(ticks).size).toBe(ticks.length);
            expect(ticks.length + Number(row!.skipped_ticks)).toBe(handled);
            expect(Number(row!.skipped_ticks)).toBeGreaterThanOrEqual(2);
        } finally {
            await server.close();
            await testStore.drop();
        }
    });
});

if (store === 'postgres') {
    describe('a schedule across worker processes killed at ticks', () => {
        const children: Child[] = [];
        let testStore: TestStore;
        let api: TestServer;

        afterAll(async () => {
            for (const child of children) {
                await stopChild(child, 'SIGKILL');
            }

            await api?.close();
            await testStore?.drop();
        });

        it('inserts one run per tick, or counts the tick skipped: never two, never none', async () => {
            testStore = await createTestStore();
            api = await startTestServer({ testStore, config: { role: 'api' } });
            const account = await createAccount(api);
            const runs = runsApi(api, account);
            const env = { RUN_LEASE_MS: '1000', LOG_LEVEL: 'info' };
            const started = (child: Child) => child.output.some((line) => line.includes('run worker started'));
            const whenStarted = async (child: Child) => {
                while (!started(child)) {
                    if (child.process.exitCode !== null) {
                        throw new Error(`a worker exited:\n${child.output.join('')}`);
                    }
                    await new Promise((resolve) => setTimeout(resolve, 50));
                }
            };
            for (const i of [0, 1, 2]) {
                children[i] = await startChild('worker', testStore, api.smtp.url, env);
            }
            await Promise.all(children.map(whenStarted));

            const workflowId = await runs.workflow({ nodes: [{ id: 'start', type: 'TRIGGER', data: { schedule: { cron: '*/2 * * * * *', timezone: 'Europe/Berlin' } } }], edges: [] });
            const first = new Date((await runs.call('GET', `/api/workflows/${workflowId}`)).json.schedule.nextRunAt).getTime();

            // Around each tick (just before it, at it, or just after it, in turn) a worker is SIGKILLed
            // and started again at once; every third tick two are. One that has not started yet is
            // not killed (starting takes seconds on a loaded machine), so some worker is always up.
            let kills = 0;
            // Past TICKS while fewer than half of them had a kill (workers slow to start on a loaded
            // machine are spared), up to three times as many ticks.
            let ticks = 0;
            for (; ticks < TICKS || (kills < TICKS / 2 && ticks < TICKS * 3); ticks++) {
                const tick = first + ticks * TICK_MS;
                const offset = [-60, 0, 40][ticks % 3] as number;
                await sleepUntil(tick + offset);
                const up = [0, 1, 2].filter((i) => started(children[i]!));
                const victims = up.slice(0, Math.min(ticks % 3 === 2 ? 2 : 1, up.length - 1));
                for (const i of victims) {
                    children[i]!.process.kill('SIGKILL');
                }
                for (const i of victims) {
                    await children[i]!.exited;
                    children[i] = await startChild('worker', testStore, api.smtp.url, env);
                    kills++;
                }
            }
            expect(kills).toBeGreaterThanOrEqual(TICKS / 2);

            // Once the last tick is handled, stop the schedule; the ticks it handled are those before its next one.
            const nextRunAt = async () =>
                (await api.app.ctx.db.query<{ next_run_at: Date }>('SELECT next_run_at FROM workflow_triggers WHERE workflow_id = $1', [workflowId]))[0]!.next_run_at.getTime();
            while ((await nextRunAt()) <= first + (ticks - 1) * TICK_MS) {
                await new Promise((resolve) => setTimeout(resolve, 50));
            }

            const paused = await runs.call('PATCH', `/api/workflows/${workflowId}`, { paused: true });
            expect(paused.statusCode, paused.payload).toBe(200);
            const [row] = await api.app.ctx.db.query<{ next_run_at: Date; skipped_ticks: string }>('SELECT next_run_at, skipped_ticks FROM workflow_triggers WHERE workflow_id = $1', [workflowId]);
            const handled = Math.round((row!.next_run_at.getTime() - first) / TICK_MS);
            expect(handled).toBeGreaterThanOrEqual(ticks);

            const list: RunJson[] = (await runs.call('GET', `/api/workflows/${workflowId}/runs?limit=500`)).json;
            const perTick = new Map<string, number>();
            for (const run of list) {
                expect(run.trigger.type).toBe('schedule');
                const at = run.trigger.scheduledFor as string;
                expect((new Date(at).getTime() - first) % TICK_MS).toBe(0);
                expect(new Date(at).getTime()).toBeLessThan(row!.next_run_at.getTime());
                perTick.set(at, (perTick.get(at) ?? 0) + 1);
            }

            expect([...perTick.values()].filter((n) => n !== 1)).toEqual([]);
            // Every tick handled has its run, or was counted skipped (a killed worker's run still
            // held the workflow, or the tick was passed over late): none lost, none doubled.
            expect(perTick.size + Number(row!.skipped_ticks)).toBe(handled);
            // Most ticks did run: kills cost a tick now and then, not the schedule.
            const debug = JSON.stringify(list.map((r) => [r.status, r.trigger.scheduledFor]));
            expect(perTick.size, debug).toBeGreaterThan(handled / 2);
        });
    });
}
