import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { newId } from '../src/ids.js';
import { migrate } from '../src/store/migrate.js';
import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { runsApi } from './run-fixtures.js';

// Migration 027 on a store made before it, where each run carried a copy of its workflow's graph:
// the copies become revisions, in the order the runs saw them, and every run keeps its graph.

const only = (id: string) => ({ nodes: [{ id, type: 'TRIGGER', data: {} }], edges: [] });

describe('migration 027 on an earlier store', () => {
    let t: TestServer;

    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('turns run snapshots into revisions, the workflow as it is into the newest, and loses no run’s graph', async () => {
        const db = t.app.ctx.db;
        const account = await createAccount(t);
        // Back to the schema before 027.
        await db.query('DROP TABLE workflow_revisions');
        await db.query('ALTER TABLE workflows DROP COLUMN revision');
        await db.query('ALTER TABLE runs DROP COLUMN revision');
        await db.query('ALTER TABLE runs ADD COLUMN graph jsonb NOT NULL');
        await db.query('DELETE FROM schema_migrations WHERE id = 27');

        const hour = 3_600_000;
        const start = Date.now() - 100 * hour;
        const at = (hours: number) => new Date(start + hours * hour);
        const workflow = async (graph: object, createdHours: number, updatedHours: number) => {
            const id = newId('wf');
            await db.query('INSERT INTO workflows (id, account_id, name, graph, created_at, updated_at) VALUES ($1, $2, $3, $4::jsonb, $5, $6)', [
                id,
                account.accountId,
                `old ${id}`,
                JSON.stringify(graph),
                at(createdHours),
                at(updatedHours)
            ]);
            return id;
        };
        const runs: { id: string; graph: object }[] = [];
        // Runs a schedule or a hook started (migration 024, applied before 027) keep what started them.
        const run = async (workflowId: string, graph: object, hours: number, retryOf: string | null = null, trigger: 'manual' | 'schedule' | 'webhook' = 'manual') => {
            const id = newId('run');
            await db.query(
                `INSERT INTO runs (id, account_id, workflow_id, graph, status, created_at, started_at, completed_at, result, retry_of, trigger_type, scheduled_for)
                 VALUES ($1, $2, $3, $4::jsonb, 'SUCCESS', $5, $5, $5, '{"totalRows":0,"filteredOut":0,"emailsSent":0}', $6, $7, $8)`,
                [id, account.accountId, workflowId, JSON.stringify(graph), at(hours), retryOf, trigger, trigger === 'schedule' ? at(hours) : null]
            );
            runs.push({ id, graph });
            return id;
        };

        // Edited A -> B -> A -> C, with runs of A, A, B, A (the last a retry, in the same instant as a run).
        const edited = await workflow(only('c'), 0, 50);
        await run(edited, only('a'), 1);
        const second = await run(edited, only('a'), 2);
        await run(edited, only('b'), 3);
        await run(edited, only('a'), 4);
        await run(edited, only('a'), 4, second);
        // Never run; run and never changed since.
        const idle = await workflow(only('x'), 10, 10);
        const steady = await workflow(only('y'), 20, 20);
        await run(steady, only('y'), 21);
        const ticked = await run(steady, only('y'), 22, null, 'schedule');
        const hooked = await run(steady, only('y'), 23, null, 'webhook');
        // Graphs equal as values but written with keys in another order are one revision.
        const reordered = await workflow({ edges: [], nodes: [{ data: {}, type: 'TRIGGER', id: 'z' }] }, 30, 30);
        await run(reordered, only('z'), 31);

        expect(await migrate(db)).toEqual(['027-revisions']);

        const revisions = async (workflowId: string) =>
            db.query<{ revision: number; graph: object; name: string; created_at: Date }>(
                'SELECT revision, graph, name, created_at FROM workflow_revisions WHERE workflow_id = $1 ORDER BY revision',
                [workflowId]
            );
        expect((await revisions(edited)).map((r) => [r.revision, r.graph, r.created_at])).toEqual([
            [1, only('a'), at(0)],
            [2, only('b'), at(3)],
            [3, only('a'), at(4)],
            [4, only('c'), at(50)]
        ]);
        expect((await revisions(idle)).map((r) => [r.revision, r.graph, r.name])).toEqual([[1, only('x'), `old ${idle}`]]);
        expect((await revisions(steady)).map((r) => [r.revision, r.graph])).toEqual([[1, only('y')]]);
        expect((await revisions(reordered)).map((r) => r.revision)).toEqual([1]);

        const current = await db.query<{ id: string; revision: number }>('SELECT id, revision FROM workflows WHERE account_id = $1', [account.accountId]);
        expect(Object.fromEntries(current.map((w) => [w.id, w.revision]))).toEqual({ [edited]: 4, [idle]: 1, [steady]: 1, [reordered]: 1 });

        // Every run's graph, as the store and the API give it, is the one it carried.
        const api = runsApi(t, account);
        for (const { id, graph } of runs) {
            const row = await db.one<{ graph: object }>(
                'SELECT v.graph FROM runs r JOIN workflow_revisions v ON v.workflow_id = r.workflow_id AND v.revision = r.revision WHERE r.id = $1',
                [id]
            );
            expect(row?.graph, id).toEqual(graph);
            const detail = await api.get(id);
            expect(detail.nodes.map((n) => n.nodeId)).toEqual((graph as { nodes: { id: string }[] }).nodes.map((n) => n.id));
        }

        expect(await api.get(ticked)).toMatchObject({ revision: 1, trigger: { type: 'schedule', scheduledFor: at(22).toISOString() } });
        expect(await api.get(hooked)).toMatchObject({ revision: 1, trigger: { type: 'webhook' } });

        // The migrated store goes on: a change makes the next revision, a run executes it.
        const changed = await t.request({ method: 'PATCH', url: `/api/workflows/${edited}`, headers: account.headers, payload: { graph: only('d') } });
        expect(changed.json.revision).toBe(5);
        const next = await api.run(edited);
        expect(next).toMatchObject({ status: 'SUCCESS', revision: 5 });
    });
});
