import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Queryable } from '../src/store/db.js';
import { type Intent, type Outcome, writeDeliveries } from '../src/store/deliveries.js';
import { newId } from '../src/ids.js';
import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';

const intents = (from: number, count: number): Intent[] =>
    Array.from({ length: count }, (_, i) => ({ node_id: 'send', element_index: from + i, message_id: `<m${from + i}@plan.test>`, resent: false }));

const outcomes = (from: number, count: number): Outcome[] =>
    Array.from({ length: count }, (_, i) => ({ node_id: 'send', element_index: from + i, status: 'SENT' as const, error: null, content: null }));

/** A SQL array literal of the values, for EXPLAIN EXECUTE (which takes no bind parameters). */
const array = (values: unknown[], type: string) =>
    `ARRAY[${values.map((v) => (v === null ? 'NULL' : typeof v === 'string' ? `'${v.replaceAll("'", "''")}'` : String(v))).join(',')}]::${type}[]`;

/**
 * The delivery write of a big run on PostgreSQL slowed from 2,100 to 300 e-mails/s: its prepared
 * statement kept the plan it was given while the run had few deliveries (a sequential scan of the
 * run's deliveries and a hash join), and so read every delivery of the run on each write.
 */
describe('delivery records: the write of a big run reads no more than the rows it writes', () => {
    let t: TestServer;
    let client: pg.PoolClient;
    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(async () => {
        await t.close();
    });

    it('keeps, once the run has 50,000 deliveries, a plan made when it had none that scans none of them', async () => {
        const account = await createAccount(t);
        const workflowId = newId('wf');
        const runId = newId('run');
        const token = 'plan-test-token';
        await t.app.ctx.db.query(`INSERT INTO workflows (id, account_id, name, graph, revision) VALUES ($1, $2, 'plan', '{}', 1)`, [workflowId, account.accountId]);
        await t.app.ctx.db.query(`INSERT INTO runs (id, account_id, workflow_id, revision, status) VALUES ($1, $2, $3, 1, 'RUNNING')`, [runId, account.accountId, workflowId]);
        await t.app.ctx.db.query(`INSERT INTO workflow_leases (workflow_id, holder, token, expires_at) VALUES ($1, 'test', $2, now() + interval '1 hour')`, [workflowId, token]);

        // One session throughout (a prepared statement and its cached plan belong to one), used by
        // the store's own writeDeliveries as the pool would be.
        client = await t.app.ctx.db.pool.connect();
        const session = { pool: client } as unknown as Queryable;
        try {
            // Left to itself, PostgreSQL caches a generic plan after five executions whose custom
            // plans cost no less; forcing it makes the test not depend on that count.
            await client.query('ANALYZE deliveries');
            await client.query('SET plan_cache_mode = force_generic_plan');
            const run = { id: runId, originRunId: runId, workflowId, token, attempt: 'a1' };
            expect(await writeDeliveries(session, run, [], intents(0, 2))).toBe(true);
            expect(await writeDeliveries(session, run, outcomes(0, 2), intents(2, 2))).toBe(true);

            await client.query(
                `INSERT INTO deliveries (run_id, node_id, element_index, message_id, status, origin_run_id)
                 SELECT $1, 'send', g, '<m' || g || '@plan.test>', 'SENT', $1 FROM generate_series(4, 50003) g`,
                [runId]
            );

            const params = [
                `'${runId}'`,
                `'${runId}'`,
                `'${workflowId}'`,
                `'${token}'`,
                array(['send', 'send'], 'text'),
                array([2, 3], 'int'),
                array(['SENT', 'SENT'], 'text'),
                array([null, null], 'text'),
                array([null, null], 'text'),
                array(['send', 'send'], 'text'),
                array([50004, 50005], 'int'),
                array(['<m50004@plan.test>', '<m50005@plan.test>'], 'text'),
                array([false, false], 'boolean'),
                `'a1'`
            ];
            const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE flowctl_deliveries_write(${params.join(', ')})`)).rows
                .map((row) => row['QUERY PLAN'])
                .join('\n');
            expect(plan).toMatch(/on deliveries/);
            expect(plan).not.toMatch(/Seq Scan on deliveries/);

            // And the write does what it did: outcomes recorded on their intents, the next intents added.
            expect(await writeDeliveries(session, run, outcomes(2, 2), intents(50004, 2))).toBe(true);
            const rows = await client.query<{ element_index: number; status: string; message_id: string }>(
                'SELECT element_index, status, message_id FROM deliveries WHERE run_id = $1 AND element_index IN (0, 2, 3, 50004) ORDER BY element_index',
                [runId]
            );
            expect(rows.rows).toEqual([
                { element_index: 0, status: 'SENT', message_id: '<m0@plan.test>' },
                { element_index: 2, status: 'SENT', message_id: '<m2@plan.test>' },
                { element_index: 3, status: 'SENT', message_id: '<m3@plan.test>' },
                { element_index: 50004, status: 'SENDING', message_id: '<m50004@plan.test>' }
            ]);
        } finally {
            await client.query('RESET plan_cache_mode').catch(() => {});
            client.release();
        }
    });
});
