// What the API process remembers to answer cheaply (issue 27): a run's detail until the run changes
// (embedded store only), and an access token's checked signature (both stores). Neither may ever
// answer what the store or the clock no longer says.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, store, type TestServer } from './harness.js';
import { triggerOnly } from './upload-fixtures.js';

/** Statements sent to the database while `fn` runs, counted at the driver; the fewest of three tries. */
const statementsOf = async (fn: () => Promise<unknown>): Promise<number> => {
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
        let sent = 0;
        const query = pg.Client.prototype.query;
        pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
            sent++;
            return (query as (...a: unknown[]) => unknown).apply(this, args);
        } as typeof query;
        try {
            await fn();
        } finally {
            pg.Client.prototype.query = query;
        }

        counts.push(sent);
    }

    return Math.min(...counts);
};

describe('remembered answers', () => {
    let t: TestServer;
    let account: TestAccount;
    let workflowId: string;

    beforeAll(async () => {
        // No worker: a run stays PENDING until the test changes it.
        t = await startTestServer({ config: { role: 'api' } });
        account = await createAccount(t);
        workflowId = (await t.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: 'W', graph: triggerOnly() } })).json.workflowId;
    });
    afterAll(() => t.close());
    afterEach(() => {
        vi.useRealTimers();
    });

    const enqueue = async (): Promise<string> => (await t.request({ method: 'POST', url: `/api/workflows/${workflowId}/run`, headers: account.headers })).json.runId;
    const getRun = (runId: string, headers = account.headers) => t.request({ method: 'GET', url: `/api/workflows/runs/${runId}`, headers });

    it('answers a run asked again without a statement on the embedded store, and reads it each time on PostgreSQL', async () => {
        const runId = await enqueue();
        expect((await getRun(runId)).statusCode).toBe(200);
        const again = await statementsOf(async () => {
            expect((await getRun(runId)).json).toMatchObject({ runId, status: 'PENDING' });
        });
        // On PostgreSQL: the session's lookup and the run's read.
        expect(again).toBe(store === 'embedded' ? 0 : 2);
    });

    it('answers every change of a run, whoever made it, at once', async () => {
        const runId = await enqueue();
        const first = await getRun(runId);
        expect(first.json.status).toBe('PENDING');
        await getRun(runId);

        // Written the way the worker writes: straight to the store, not through the API's services.
        await t.app.ctx.db.query(`UPDATE runs SET status = 'FAILED', error = 'stopped by the test', completed_at = now() WHERE id = $1`, [runId]);
        const failed = await getRun(runId);
        expect(failed.json).toMatchObject({ status: 'FAILED', error: 'stopped by the test' });
        expect(failed.headers.etag).not.toBe(first.headers.etag);

        await t.app.ctx.db.query(
            `INSERT INTO run_nodes (run_id, node_id, status, started_at, completed_at) VALUES ($1, 'start', 'SUCCESS', now(), now())
             ON CONFLICT (run_id, node_id) DO UPDATE SET status = 'SUCCESS'`,
            [runId]
        );
        expect((await getRun(runId)).json.nodes).toMatchObject([{ nodeId: 'start', status: 'SUCCESS' }]);

        await t.app.ctx.db.query('DELETE FROM runs WHERE id = $1', [runId]);
        expect((await getRun(runId)).statusCode).toBe(404);
    });

    it("answers another account's run as an unknown one, even once the owner's answer is remembered", async () => {
        const runId = await enqueue();
        await getRun(runId);
        await getRun(runId);
        const intruder = await createAccount(t);
        const foreign = await getRun(runId, intruder.headers);
        expect(foreign.statusCode).toBe(404);
        expect(foreign.json.message).toBe((await getRun('run_doesnotexist', intruder.headers)).json.message.replace('run_doesnotexist', runId));
    });

    it('still refuses an access token once it has expired, however often it was accepted before', async () => {
        const me = () => t.request({ method: 'GET', url: `/api/workflows/${workflowId}`, headers: account.headers });
        expect((await me()).statusCode).toBe(200);
        expect((await me()).statusCode).toBe(200);

        vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 16 * 60 * 1000 });
        const late = await me();
        expect(late.statusCode).toBe(401);
        expect(late.json.message).toBe('Token expired');
    });

    it('refuses a token whose signature is wrong even when a good one with the same payload was accepted', async () => {
        const [header, payload, signature] = account.token.split('.');
        const forged = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
        expect((await t.request({ method: 'GET', url: `/api/workflows/${workflowId}`, headers: account.headers })).statusCode).toBe(200);
        const res = await t.request({ method: 'GET', url: `/api/workflows/${workflowId}`, headers: { authorization: `Bearer ${forged}` } });
        expect(res.statusCode).toBe(401);
        expect(res.json.message).toBe('Invalid token signature');
    });
});
