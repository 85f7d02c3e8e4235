import { afterAll, describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

// Issue 20 §5: finished runs, their node states and their delivery records are deleted
// RUN_RETENTION_DAYS after they ended; the worker sweeps when it starts and every hour after.

describe('runs: retention', () => {
    let first: TestServer | null = null;
    let second: TestServer | null = null;
    afterAll(async () => {
        await second?.close();
        await first?.testStore.drop();
    });

    it('deletes a run that ended longer ago than RUN_RETENTION_DAYS with its records, and keeps the others', async () => {
        first = await startTestServer({ config: { runRetentionDays: 30 } });
        const account = await createAccount(first);
        const api = runsApi(first, account);
        const csv = ['name,email,age,city', 'A,a@kept.example.test,30,Porto', 'B,b@kept.example.test,31,Porto'].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        const old = await api.run(workflowId);
        const recent = await api.run(workflowId);
        const pending = await api.enqueue(workflowId);
        await api.waitFor(pending);
        expect([old.status, recent.status]).toEqual(['SUCCESS', 'SUCCESS']);
        // One ended 31 days ago, one 29 days ago.
        await first.app.ctx.db.query("UPDATE runs SET completed_at = now() - interval '31 days' WHERE id = $1", [old.runId]);
        await first.app.ctx.db.query("UPDATE runs SET completed_at = now() - interval '29 days' WHERE id = $1", [recent.runId]);

        await first.app.stop();
        await first.smtp.close();
        second = await startTestServer({ testStore: first.testStore, config: { runRetentionDays: 30 } });
        const again = runsApi(second, account);

        const gone = await again.call('GET', `/api/workflows/runs/${old.runId}`);
        expect(gone.statusCode).toBe(404);
        expect((await again.get(recent.runId)).status).toBe('SUCCESS');
        expect((await again.get(pending)).status).toBe('SUCCESS');
        const left = async (table: string) =>
            (await second!.app.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE run_id = $1`, [old.runId]))[0]?.n;
        expect([await left('deliveries'), await left('run_nodes')]).toEqual([0, 0]);
    });
});
