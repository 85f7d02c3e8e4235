import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startDbProxy } from './db-proxy.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { createTestStore, startTestServer, store, type TestServer } from './harness.js';
import { triggerOnly } from './upload-fixtures.js';

describe('Idempotency-Key on enqueue and workflow create', () => {
    let t: TestServer;
    let account: TestAccount;
    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
    });
    afterAll(() => t.close());

    const send = (server: TestServer, method: string, url: string, key: string | null, who: TestAccount = account, payload?: object) =>
        server.request({ method, url, headers: { ...who.headers, ...(key ? { 'idempotency-key': key } : {}) }, ...(payload ? { payload } : {}) });

    const workflow = async (who: TestAccount = account, server: TestServer = t) => {
        const res = await send(server, 'POST', '/api/workflows', null, who, { name: 'idempotent', graph: triggerOnly() });
        expect(res.statusCode, res.payload).toBe(201);
        return res.json.workflowId as string;
    };

    const runCount = async (workflowId: string) =>
        (await t.app.ctx.db.query<{ n: number }>('SELECT count(*) AS n FROM runs WHERE workflow_id = $1', [workflowId]))[0]!.n;

    it('answers a repeated enqueue with the first answer and enqueues one run', async () => {
        const workflowId = await workflow();
        const first = await send(t, 'POST', `/api/workflows/${workflowId}/run`, 'enqueue-1');
        expect(first.statusCode, first.payload).toBe(202);
        expect(first.headers['idempotent-replayed']).toBeUndefined();

        const again = await send(t, 'POST', `/api/workflows/${workflowId}/run`, 'enqueue-1');
        expect(again.statusCode).toBe(202);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json).toEqual(first.json);
        expect(await runCount(workflowId)).toBe(1);

        // Without a key every request is its own.
        await send(t, 'POST', `/api/workflows/${workflowId}/run`, null);
        await send(t, 'POST', `/api/workflows/${workflowId}/run`, null);
        expect(await runCount(workflowId)).toBe(3);
    });

    it('answers 422 when a key is reused for another request, and runs nothing', async () => {
        const [one, two] = [await workflow(), await workflow()];
        expect((await send(t, 'POST', `/api/workflows/${one}/run`, 'reused')).statusCode).toBe(202);
        const other = await send(t, 'POST', `/api/workflows/${two}/run`, 'reused');
        expect(other.statusCode).toBe(422);
        expect(other.json.message).toMatch(/Idempotency-Key 'reused' was already used for a different request/);
        expect(await runCount(two)).toBe(0);

        const created = await send(t, 'POST', '/api/workflows', 'create-1', account, { name: 'a', graph: triggerOnly() });
        expect(created.statusCode).toBe(201);
        const changed = await send(t, 'POST', '/api/workflows', 'create-1', account, { name: 'b', graph: triggerOnly() });
        expect(changed.statusCode).toBe(422);
    });

    it('creates one workflow for a repeated create', async () => {
        const owner = await createAccount(t);
        const body = { name: 'once', graph: triggerOnly() };
        const first = await send(t, 'POST', '/api/workflows', 'create-once', owner, body);
        const again = await send(t, 'POST', '/api/workflows', 'create-once', owner, body);
        expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
        expect(again.json).toEqual(first.json);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect((await send(t, 'GET', '/api/workflows', null, owner)).json).toHaveLength(1);
    });

    it('keeps keys per account', async () => {
        const [a, b] = [await createAccount(t), await createAccount(t)];
        const body = { name: 'mine', graph: triggerOnly() };
        const fromA = await send(t, 'POST', '/api/workflows', 'shared-key', a, body);
        const fromB = await send(t, 'POST', '/api/workflows', 'shared-key', b, body);
        expect([fromA.statusCode, fromB.statusCode]).toEqual([201, 201]);
        expect(fromB.json.workflowId).not.toBe(fromA.json.workflowId);
        expect(fromB.headers['idempotent-replayed']).toBeUndefined();
    });

    it('does not keep a failed answer: a corrected retry with the same key runs', async () => {
        const bad = await send(t, 'POST', '/api/workflows', 'fix-and-retry', account, { name: 'x', graph: { nodes: [], edges: [] } });
        expect(bad.statusCode).toBe(400);
        const good = await send(t, 'POST', '/api/workflows', 'fix-and-retry', account, { name: 'x', graph: triggerOnly() });
        expect(good.statusCode).toBe(201);
        expect(good.headers['idempotent-replayed']).toBeUndefined();
    });

    it('makes concurrent requests with one key wait for the first: one run, one answer', async () => {
        const workflowId = await workflow();
        const answers = await Promise.all(Array.from({ length: 6 }, () => send(t, 'POST', `/api/workflows/${workflowId}/run`, 'concurrent')));
        expect(answers.map((res) => res.statusCode)).toEqual(Array(6).fill(202));
        expect(new Set(answers.map((res) => res.json.runId)).size).toBe(1);
        expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
        expect(await runCount(workflowId)).toBe(1);
    });

    // The embedded database belongs to one process; on PostgreSQL any number of API processes share keys.
    if (store === 'postgres') {
        it('holds across API processes on PostgreSQL', async () => {
            const other = await startTestServer({ testStore: t.testStore, config: { role: 'api' } });
            try {
                const workflowId = await workflow();
                const answers = await Promise.all(
                    Array.from({ length: 8 }, (_, i) => send(i % 2 === 0 ? t : other, 'POST', `/api/workflows/${workflowId}/run`, 'two-processes'))
                );
                expect(answers.map((res) => res.statusCode)).toEqual(Array(8).fill(202));
                expect(new Set(answers.map((res) => res.json.runId)).size).toBe(1);
                expect(await runCount(workflowId)).toBe(1);
            } finally {
                await other.close();
            }
        });
    }

    it('answers the run a request enqueued when its answer was lost after the commit: a retry enqueues no other', async () => {
        const workflowId = await workflow();
        const url = `/api/workflows/${workflowId}/run`;
        const first = await send(t, 'POST', url, 'answer-lost');
        expect(first.statusCode, first.payload).toBe(202);

        // Its process died before the answer was stored: the reservation, never answered, is taken over after a minute.
        await t.app.ctx.db.query(
            "UPDATE idempotency_keys SET status_code = NULL, response = NULL, created_at = now() - interval '2 minutes' WHERE key = 'answer-lost'"
        );
        const afterCrash = await send(t, 'POST', url, 'answer-lost');
        expect(afterCrash.statusCode, afterCrash.payload).toBe(202);
        expect(afterCrash.json).toEqual(first.json);
        expect(afterCrash.headers['idempotent-replayed']).toBe('true');

        // Its database connection dropped after the commit: the request failed, and let its key go.
        await t.app.ctx.db.query("DELETE FROM idempotency_keys WHERE key = 'answer-lost'");
        const afterDrop = await send(t, 'POST', url, 'answer-lost');
        expect(afterDrop.statusCode, afterDrop.payload).toBe(202);
        expect(afterDrop.json).toEqual(first.json);
        expect(afterDrop.headers['idempotent-replayed']).toBe('true');
        expect(await runCount(workflowId)).toBe(1);

        // The run keeps the key to its own request: another workflow's enqueue with it is still refused.
        await t.app.ctx.db.query("DELETE FROM idempotency_keys WHERE key = 'answer-lost'");
        const other = await workflow();
        const reused = await send(t, 'POST', `/api/workflows/${other}/run`, 'answer-lost');
        expect(reused.statusCode, reused.payload).toBe(422);
        expect(await runCount(other)).toBe(0);
    });

    it('makes no second workflow when a create was answered to nobody, and gives its hook a URL that works', async () => {
        const owner = await createAccount(t);
        const body = { name: 'hooked once', graph: { nodes: [{ id: 'start', type: 'TRIGGER', data: { webhook: true } }], edges: [] } };
        const first = await send(t, 'POST', '/api/workflows', 'create-lost', owner, body);
        expect(first.statusCode, first.payload).toBe(201);
        const { workflowId } = first.json;

        // The first request's process died after the insert, before the hook was made and the answer stored.
        await t.app.ctx.db.query('DELETE FROM workflow_triggers WHERE workflow_id = $1', [workflowId]);
        await t.app.ctx.db.query(
            "UPDATE idempotency_keys SET status_code = NULL, response = NULL, created_at = now() - interval '2 minutes' WHERE key = 'create-lost'"
        );
        const again = await send(t, 'POST', '/api/workflows', 'create-lost', owner, body);
        expect(again.statusCode, again.payload).toBe(201);
        expect(again.json).toMatchObject({ workflowId, name: 'hooked once', createdAt: first.json.createdAt, hookUrl: expect.any(String) });
        expect((await send(t, 'GET', '/api/workflows', null, owner)).json).toHaveLength(1);
        const hook = (url: string) => t.request({ method: 'POST', url: new URL(url).pathname, headers: { 'content-type': 'application/json' }, payload: '[]' });
        expect((await hook(again.json.hookUrl)).statusCode).toBe(202);
        // The first URL was never seen by the client: it is replaced, not kept beside the new one.
        expect((await hook(first.json.hookUrl)).statusCode).toBe(404);
    });

    it('forgets a key after 24 hours, and takes over one whose first request died unanswered', async () => {
        const workflowId = await workflow();
        const first = await send(t, 'POST', `/api/workflows/${workflowId}/run`, 'day-old');
        await t.app.ctx.db.query("UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'day-old'");
        await t.app.ctx.db.query("UPDATE runs SET created_at = created_at - interval '25 hours' WHERE idempotency_key = 'day-old'");
        const later = await send(t, 'POST', `/api/workflows/${workflowId}/run`, 'day-old');
        expect(later.statusCode).toBe(202);
        expect(later.json.runId).not.toBe(first.json.runId);

        await t.app.ctx.db.query(
            "INSERT INTO idempotency_keys (account_id, key, fingerprint, created_at) VALUES ($1, 'orphan', 'whatever', now() - interval '2 minutes')",
            [account.accountId]
        );
        const takeover = await send(t, 'POST', `/api/workflows/${workflowId}/run`, 'orphan');
        expect(takeover.statusCode).toBe(202);
        expect(await runCount(workflowId)).toBe(3);
    });

    // A real connection lost between the enqueue's commit and its reply: the client gets a 503 and retries.
    if (store === 'postgres') {
        it('answers the committed run to the retry of an enqueue whose database connection dropped before the reply', async () => {
            const base = await createTestStore();
            const proxy = await startDbProxy(base.databaseUrl!);
            const server = await startTestServer({ testStore: { ...base, databaseUrl: proxy.url }, config: { databaseConnectTimeoutMs: 1_000 } });
            try {
                const owner = await createAccount(server);
                const workflowId = await workflow(owner, server);
                const url = `/api/workflows/${workflowId}/run`;
                const runsOf = async () => (await server.app.ctx.db.query<{ id: string }>('SELECT id FROM runs WHERE workflow_id = $1', [workflowId])).map((r) => r.id);

                proxy.loseReplyTo('flowctl_runs_enqueueKeyedRun');
                const lost = await send(server, 'POST', url, 'reply-lost', owner);
                expect(lost.statusCode, lost.payload).toBe(503);
                const committed = await runsOf();
                expect(committed).toHaveLength(1);

                const retried = await send(server, 'POST', url, 'reply-lost', owner);
                expect(retried.statusCode, retried.payload).toBe(202);
                expect(retried.json.runId).toBe(committed[0]);
                expect(retried.headers['idempotent-replayed']).toBe('true');
                expect(await runsOf()).toEqual(committed);
            } finally {
                await server.close();
                await proxy.close();
                await base.drop();
            }
        });
    }

    it('rejects a malformed key with 400 and documents the header', async () => {
        const workflowId = await workflow();
        const res = await send(t, 'POST', `/api/workflows/${workflowId}/run`, 'has space');
        expect(res.statusCode).toBe(400);
        expect(res.json.message).toMatch(/idempotency-key/);
        expect(await runCount(workflowId)).toBe(0);

        const doc = (await t.request({ method: 'GET', url: '/openapi.json' })).json;
        const enqueue = doc.paths['/api/workflows/{workflowId}/run'].post;
        expect(enqueue.parameters).toContainEqual(expect.objectContaining({ name: 'idempotency-key', in: 'header', required: false }));
        expect(Object.keys(enqueue.responses)).toContain('422');
    });
});
