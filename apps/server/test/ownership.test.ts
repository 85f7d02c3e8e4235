import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { readsUpload, triggerOnly, uploadCsv } from './upload-fixtures.js';

// Issue 18 §3: a request about another account's resource answers the 404 an unknown id gets,
// whatever its body, headers or query: judging them first would tell that the id exists.

interface Body {
    name: string;
    payload?: string | object;
    headers?: Record<string, string>;
}

/** Bodies each of which some check refuses (400, 415) when the resource is the caller's. */
const BODIES: Body[] = [
    { name: 'none' },
    { name: 'not JSON', payload: '{"name": ', headers: { 'content-type': 'application/json' } },
    { name: 'a form', payload: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    { name: 'plain text', payload: 'hello', headers: { 'content-type': 'text/plain' } },
    { name: 'unknown keys', payload: { bogus: true } },
    { name: 'an invalid graph', payload: { graph: { nodes: [{ id: 'a', type: 'NOPE', data: {} }], edges: [{ source: 'a', target: 'b' }] } } },
    { name: 'a graph of the wrong shape', payload: { graph: { nodes: 'all of them' } } },
    { name: 'a NUL character', payload: { name: 'a\u0000b' } },
    { name: 'deep nesting', payload: JSON.stringify({ name: JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`) }), headers: { 'content-type': 'application/json' } },
    { name: 'an invalid Idempotency-Key', payload: {}, headers: { 'idempotency-key': 'has spaces in it' } }
];

describe("another account's resources answer 404 before anything judges the request", () => {
    let t: TestServer;
    let owner: TestAccount;
    let intruder: TestAccount;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
        t = await startTestServer();
        owner = await createAccount(t);
        intruder = await createAccount(t);
        ids.upload = (await uploadCsv(t, owner, 'name,email\nAda,ada@example.test\n')).json.uploadId;
        const workflow = await t.request({ method: 'POST', url: '/api/workflows', headers: owner.headers, payload: { name: 'Mine', graph: readsUpload(ids.upload!) } });
        ids.workflow = workflow.json.workflowId;
        const other = await t.request({ method: 'POST', url: '/api/workflows', headers: owner.headers, payload: { name: 'Trigger only', graph: triggerOnly() } });
        ids.run = (await t.request({ method: 'POST', url: `/api/workflows/${other.json.workflowId}/run`, headers: owner.headers })).json.runId;
        ids.apiToken = (await t.request({ method: 'POST', url: '/api/account/tokens', headers: owner.headers, payload: { name: 'ci' } })).json.id;
        expect(Object.values(ids).every(Boolean), JSON.stringify(ids)).toBe(true);
    });
    afterAll(() => t.close());

    // Every route that names a resource in its path and may carry a body.
    const ROUTES: { method: string; path: (id: string) => string; kind: keyof typeof NOT_FOUND }[] = [
        { method: 'PATCH', path: (id) => `/api/workflows/${id}`, kind: 'workflow' },
        { method: 'DELETE', path: (id) => `/api/workflows/${id}`, kind: 'workflow' },
        { method: 'POST', path: (id) => `/api/workflows/${id}/run`, kind: 'workflow' },
        { method: 'POST', path: (id) => `/api/workflows/${id}/webhook-secret`, kind: 'workflow' },
        { method: 'POST', path: (id) => `/api/workflows/runs/${id}/cancel`, kind: 'run' },
        { method: 'POST', path: (id) => `/api/workflows/runs/${id}/retry`, kind: 'run' },
        { method: 'DELETE', path: (id) => `/api/uploads/${id}`, kind: 'upload' },
        { method: 'DELETE', path: (id) => `/api/account/tokens/${id}`, kind: 'apiToken' }
    ];
    const NOT_FOUND = {
        workflow: (id: string) => `Workflow '${id}' not found`,
        run: (id: string) => `Run '${id}' not found`,
        upload: (id: string) => `Upload '${id}' not found`,
        apiToken: (id: string) => `API token '${id}' not found`
    };

    const send = (who: TestAccount, method: string, url: string, body: Body) =>
        t.request({ method, url, headers: { ...who.headers, ...body.headers }, ...(body.payload === undefined ? {} : { payload: body.payload }) });

    for (const route of ROUTES) {
        it(`${route.method} ${route.path(`{${route.kind}}`)}`, async () => {
            const id = ids[route.kind]!;
            for (const body of BODIES) {
                const res = await send(intruder, route.method, route.path(id), body);
                expect({ body: body.name, status: res.statusCode, json: res.json }).toEqual({
                    body: body.name,
                    status: 404,
                    json: { statusCode: 404, error: 'Not Found', message: NOT_FOUND[route.kind](id) }
                });
            }
        });
    }

    it('judges the body as before when the resource is the caller’s', async () => {
        const url = `/api/workflows/${ids.workflow}`;
        const expected: Record<string, number> = {
            'not JSON': 400,
            'a form': 415,
            'unknown keys': 400,
            'an invalid graph': 400,
            'a graph of the wrong shape': 400,
            'a NUL character': 400,
            'deep nesting': 400
        };
        for (const body of BODIES.filter((b) => b.name in expected)) {
            const res = await send(owner, 'PATCH', url, body);
            expect({ body: body.name, status: res.statusCode }).toEqual({ body: body.name, status: expected[body.name] });
        }

        const invalidGraph = await send(owner, 'PATCH', url, BODIES.find((b) => b.name === 'an invalid graph')!);
        expect(invalidGraph.json.message).toMatch(/Invalid workflow graph/);
        // And nothing the intruder sent changed it.
        const workflow = await t.request({ method: 'GET', url, headers: owner.headers });
        expect(workflow.json).toMatchObject({ name: 'Mine', graph: readsUpload(ids.upload!) });
    });

    it('answers an unknown id exactly as another account’s', async () => {
        const res = await send(intruder, 'PATCH', '/api/workflows/wf_doesnotexist', BODIES.find((b) => b.name === 'an invalid graph')!);
        expect(res.statusCode).toBe(404);
        expect(res.json.message).toBe(NOT_FOUND.workflow('wf_doesnotexist'));
    });
});

/**
 * Statements a request sends to the database, counted at the driver (every pool query and every
 * statement of a transaction goes through Client#query), including those it asked the pool for
 * before its response and that are sent after it (a job's announcement). The per-address and
 * per-account request counters are not the request's: they reach the store in one batch for all the
 * requests of the last 50 ms (window-counter.ts), which on a loaded machine fell inside every window.
 * The fewest of three tries, so that another timer's statement landing in one window does not count.
 */
const statementsOf = async (fn: () => Promise<unknown>): Promise<number> => {
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
        let sent = 0;
        const asked: unknown[] = [];
        const query = pg.Client.prototype.query;
        const poolQuery = pg.Pool.prototype.query;
        pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
            const statement = args[0] as string | { text: string };
            if (!(typeof statement === 'string' ? statement : statement.text).startsWith('INSERT INTO rate_limits')) {
                sent++;
            }

            return (query as (...a: unknown[]) => unknown).apply(this, args);
        } as typeof query;
        pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
            const answer = (poolQuery as (...a: unknown[]) => unknown).apply(this, args);
            asked.push(answer);
            return answer;
        } as typeof poolQuery;
        try {
            await fn();
            await Promise.allSettled(asked);
        } finally {
            pg.Client.prototype.query = query;
            pg.Pool.prototype.query = poolQuery;
        }

        counts.push(sent);
    }

    return Math.min(...counts);
};

describe('ownership is checked once per request', () => {
    let t: TestServer;
    let owner: TestAccount;
    let intruder: TestAccount;
    let workflowId: string;

    beforeAll(async () => {
        // No worker: only the request's own statements reach the database.
        t = await startTestServer({ config: { role: 'api' } });
        owner = await createAccount(t);
        intruder = await createAccount(t);
        workflowId = (await t.request({ method: 'POST', url: '/api/workflows', headers: owner.headers, payload: { name: 'W', graph: triggerOnly() } })).json.workflowId;
    });
    afterAll(() => t.close());

    it('an enqueue costs what a read costs: its INSERT, filtered by account, is the check', async () => {
        const read = await statementsOf(async () => {
            expect((await t.request({ method: 'GET', url: `/api/workflows/${workflowId}`, headers: owner.headers })).statusCode).toBe(200);
        });
        const enqueue = await statementsOf(async () => {
            expect((await t.request({ method: 'POST', url: `/api/workflows/${workflowId}/run`, headers: owner.headers })).statusCode).toBe(202);
        });
        // Authentication and one statement each; with a separate ownership SELECT it was one more, and
        // on PostgreSQL one more again when the drain job was announced by a NOTIFY of its own.
        expect(enqueue).toBe(read);
    });

    it("another account's id and an unknown id still answer the same 404, with or without an Idempotency-Key", async () => {
        const pending = async () =>
            (await t.request({ method: 'GET', url: `/api/workflows/${workflowId}/runs`, headers: owner.headers })).json.filter((run: { status: string }) => run.status === 'PENDING').length;
        const before = await pending();
        for (const headers of [{}, { 'idempotency-key': 'k-1' }, { 'idempotency-key': 'has spaces in it' }]) {
            const foreign = await t.request({ method: 'POST', url: `/api/workflows/${workflowId}/run`, headers: { ...intruder.headers, ...headers } });
            const unknown = await t.request({ method: 'POST', url: '/api/workflows/wf_doesnotexist/run', headers: { ...intruder.headers, ...headers } });
            expect([foreign.statusCode, foreign.json.message]).toEqual([404, `Workflow '${workflowId}' not found`]);
            expect([unknown.statusCode, unknown.json.message]).toEqual([404, "Workflow 'wf_doesnotexist' not found"]);
        }

        expect(await pending()).toBe(before);
    });
});
