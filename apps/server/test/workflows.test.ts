import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { readsUpload, triggerOnly, uploadCsv } from './upload-fixtures.js';

const fullGraph = (uploadId: string) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'adults', type: 'FILTER', data: { source: '{{people.rows}}', expr: "age >= 18 && country == 'PT'" } },
        { id: 'mail', type: 'OUTPUT', data: { forEach: '{{adults.items}}', to: '{{item.email}}', subject: 'Hi {{item.name}}', body: 'Hello {{ item.name }},\nwelcome.' } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'adults' },
        { source: 'adults', target: 'mail' }
    ]
});

describe('workflows', () => {
    let t: TestServer;
    let account: TestAccount;
    let uploadId: string;
    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
        uploadId = (await uploadCsv(t, account, 'name,email,age,country\nAda,ada@example.test,36,PT\n')).json.uploadId;
    });
    afterAll(() => t.close());

    const call = (method: string, url: string, payload?: unknown, who: TestAccount = account) =>
        t.request({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

    const create = async (name: string, graph: unknown = triggerOnly(), who: TestAccount = account) => {
        const res = await call('POST', '/api/workflows', { name, graph }, who);
        expect(res.statusCode).toBe(201);
        return res.json as { workflowId: string; name: string; createdAt: string };
    };

    it('creates a workflow: 201 with workflowId, name and createdAt', async () => {
        const res = await call('POST', '/api/workflows', { name: 'Welcome e-mails', graph: fullGraph(uploadId) });
        expect(res.statusCode).toBe(201);
        expect(res.json).toEqual({ workflowId: expect.stringMatching(/^wf_[0-9a-z]{20}$/), name: 'Welcome e-mails', createdAt: expect.any(String) });
        expect(new Date(res.json.createdAt).toISOString()).toBe(res.json.createdAt);
    });

    it('lists an empty array, then every workflow newest first as {id, name, graph, revision, createdAt}', async () => {
        const owner = await createAccount(t);
        const empty = await call('GET', '/api/workflows', undefined, owner);
        expect(empty.statusCode).toBe(200);
        expect(empty.json).toEqual([]);

        const first = await create('first', triggerOnly(), owner);
        const second = await create('second', triggerOnly(), owner);
        const list = await call('GET', '/api/workflows', undefined, owner);
        expect(list.json).toEqual([
            { id: second.workflowId, name: 'second', graph: triggerOnly(), revision: 1, createdAt: second.createdAt },
            { id: first.workflowId, name: 'first', graph: triggerOnly(), revision: 1, createdAt: first.createdAt }
        ]);
    });

    it('gets a workflow with its graph as sent, updatedAt, and webhookUrl only when set', async () => {
        const graph = fullGraph(uploadId);
        const { workflowId, createdAt } = await create('Full', graph);
        const got = await call('GET', `/api/workflows/${workflowId}`);
        expect(got.statusCode).toBe(200);
        expect(got.json).toEqual({ id: workflowId, name: 'Full', graph, revision: 1, createdAt, updatedAt: createdAt });

        const hooked = await call('POST', '/api/workflows', { name: 'Hooked', graph: triggerOnly(), webhookUrl: 'https://hooks.example.test/flowctl' });
        const withHook = await call('GET', `/api/workflows/${hooked.json.workflowId}`);
        expect(withHook.json.webhookUrl).toBe('https://hooks.example.test/flowctl');
    });

    it('patches the name, the graph or the webhook; keys left out keep their value', async () => {
        const { workflowId, createdAt } = await create('Before');
        const renamed = await call('PATCH', `/api/workflows/${workflowId}`, { name: '  After  ' });
        expect(renamed.statusCode).toBe(200);
        expect(renamed.json).toMatchObject({ id: workflowId, name: 'After', graph: triggerOnly(), createdAt });
        expect(Date.parse(renamed.json.updatedAt)).toBeGreaterThanOrEqual(Date.parse(createdAt));

        const regraphed = await call('PATCH', `/api/workflows/${workflowId}`, { graph: readsUpload(uploadId), webhookUrl: 'http://hooks.example.test:9/hook' });
        expect(regraphed.json).toMatchObject({ name: 'After', graph: readsUpload(uploadId), webhookUrl: 'http://hooks.example.test:9/hook' });

        const unhooked = await call('PATCH', `/api/workflows/${workflowId}`, { webhookUrl: null });
        expect(unhooked.json).not.toHaveProperty('webhookUrl');
        expect((await call('GET', `/api/workflows/${workflowId}`)).json).toEqual(unhooked.json);
    });

    it('refuses a webhook on a loopback or private address unless the server allows it', async () => {
        const { workflowId } = await create('Local hook');
        const hooks = ['http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'https://10.1.2.3/hook', 'http://169.254.169.254/latest'];
        // IPv6 literals that embed a private IPv4 address: compatible, mapped-translated, NAT64, 6to4.
        hooks.push('http://[::127.0.0.1]/hook', 'http://[::ffff:0:127.0.0.1]/hook', 'http://[64:ff9b::169.254.169.254]/latest', 'http://[2002:a01:203::1]/hook');
        for (const webhookUrl of hooks) {
            const res = await call('PATCH', `/api/workflows/${workflowId}`, { webhookUrl });
            expect(res.statusCode, webhookUrl).toBe(400);
            expect(res.json.message).toMatch(/^Invalid webhookUrl: .+ is a private or local address \(.+\); set ALLOW_PRIVATE_NETWORK=true on the server to allow it$/);
            expect(res.json.details).toEqual([{ path: 'webhookUrl', message: expect.stringContaining('ALLOW_PRIVATE_NETWORK') }]);
        }

        const created = await call('POST', '/api/workflows', { name: 'Local hook', graph: triggerOnly(), webhookUrl: 'http://192.168.1.5/hook' });
        expect(created.statusCode).toBe(400);
        expect((await call('GET', `/api/workflows/${workflowId}`)).json).not.toHaveProperty('webhookUrl');
    });

    it('validates a patched graph like a new one and leaves the workflow unchanged on error', async () => {
        const { workflowId } = await create('Stays');
        const bad = await call('PATCH', `/api/workflows/${workflowId}`, { graph: { nodes: [], edges: [] } });
        expect(bad.statusCode).toBe(400);
        expect(bad.json.details).toEqual([{ path: 'graph.nodes', message: expect.stringContaining('exactly one TRIGGER') }]);

        const empty = await call('PATCH', `/api/workflows/${workflowId}`, {});
        expect(empty.statusCode).toBe(400);
        expect(empty.json.message).toContain('send at least one of name, graph, webhookUrl');

        expect((await call('GET', `/api/workflows/${workflowId}`)).json.graph).toEqual(triggerOnly());
    });

    it('deletes a workflow: 204 with an empty body, then 404', async () => {
        const { workflowId } = await create('Doomed');
        const del = await call('DELETE', `/api/workflows/${workflowId}`);
        expect(del.statusCode).toBe(204);
        expect(del.payload).toBe('');
        expect((await call('GET', `/api/workflows/${workflowId}`)).statusCode).toBe(404);
        expect((await call('DELETE', `/api/workflows/${workflowId}`)).statusCode).toBe(404);
        expect((await call('PATCH', `/api/workflows/${workflowId}`, { name: 'x' })).statusCode).toBe(404);
    });

    it('removes the runs of a deleted workflow with it', async () => {
        const { workflowId } = await create('With runs');
        const enqueued = await call('POST', `/api/workflows/${workflowId}/run`);
        expect(enqueued.statusCode).toBe(202);
        const { runId } = enqueued.json;
        for (let i = 0; i < 200; i++) {
            const run = await call('GET', `/api/workflows/runs/${runId}`);
            if (run.json.status === 'SUCCESS' || run.json.status === 'FAILED') {
                break;
            }

            await new Promise((resolve) => setTimeout(resolve, 50));
        }

        expect((await call('DELETE', `/api/workflows/${workflowId}`)).statusCode).toBe(204);
        expect((await call('GET', `/api/workflows/runs/${runId}`)).statusCode).toBe(404);
        expect((await call('GET', `/api/workflows/${workflowId}/runs`)).statusCode).toBe(404);
    });

    it('reports every graph problem at once, each with its path', async () => {
        const res = await call('POST', '/api/workflows', {
            name: 'Broken',
            graph: {
                nodes: [
                    { id: 'src', type: 'DATA_SOURCE', data: { uploadId: 'upl_doesnotexist' } },
                    { id: 'f', type: 'FILTR', data: {} },
                    { id: 'out', type: 'OUTPUT', data: { forEach: '{{src.rows}}', to: '{{item.email}}', subject: 'Hi' } }
                ],
                edges: [{ source: 'src', target: 'nowhere' }]
            }
        });
        expect(res.statusCode).toBe(400);
        const paths = res.json.details.map((d: { path: string }) => d.path);
        expect(paths).toEqual(
            expect.arrayContaining(['graph.nodes', 'graph.nodes[1].type', 'graph.nodes[2].data.body', 'graph.edges[0].target', 'graph.nodes[0].data.uploadId'])
        );
        expect(res.json.details).toContainEqual({ path: 'graph.nodes[0].data.uploadId', message: expect.stringMatching(/^upload 'upl_doesnotexist' not found/) });
        expect(res.json.message).toMatch(/^Invalid workflow graph \(\d+ problems\): graph\./);
        for (const detail of res.json.details) {
            expect(detail.message).toEqual(expect.any(String));
        }
    });

    it('rejects unknown fields, wrong types and missing fields, all in one answer', async () => {
        const unknown = await call('POST', '/api/workflows', { name: 'x', graph: triggerOnly(), colour: 'blue' });
        expect(unknown.statusCode).toBe(400);
        expect(unknown.json.details).toEqual([{ path: 'colour', message: "'colour' is not allowed" }]);

        const unknownInGraph = await call('POST', '/api/workflows', { name: 'x', graph: { ...triggerOnly(), layout: {} } });
        expect(unknownInGraph.statusCode).toBe(400);
        expect(unknownInGraph.json.details[0].path).toBe('graph.layout');

        const types = await call('POST', '/api/workflows', { name: 42, graph: { nodes: {}, edges: 'none' } });
        expect(types.statusCode).toBe(400);
        expect(types.json.details.map((d: { path: string }) => d.path)).toEqual(['name', 'graph.nodes', 'graph.edges']);

        const missing = await call('POST', '/api/workflows', {});
        expect(missing.json.details.map((d: { path: string }) => d.path)).toEqual(['name', 'graph']);

        const blank = await call('POST', '/api/workflows', { name: '   ', graph: triggerOnly() });
        expect(blank.statusCode).toBe(400);
        expect(blank.json.details[0].path).toBe('name');

        const long = await call('POST', '/api/workflows', { name: 'x'.repeat(201), graph: triggerOnly() });
        expect(long.statusCode).toBe(400);

        const nul = await call('POST', '/api/workflows', { name: 'a\u0000b', graph: triggerOnly() });
        expect(nul.statusCode).toBe(400);
        expect(nul.json.details[0].path).toBe('name');

        const badHook = await call('POST', '/api/workflows', { name: 'x', graph: triggerOnly(), webhookUrl: 'ftp://example.test/' });
        expect(badHook.statusCode).toBe(400);
        expect(badHook.json.details[0].path).toBe('webhookUrl');
    });

    it('refuses control characters in a name (ESC, BEL, line breaks, C1), on create and on rename, like fullName and token names', async () => {
        const message = "'name' must not contain line breaks or other control characters (ESC, BEL, tab, U+0080–U+009F): give the workflow a one-line name of plain text";
        const hostile = ['Hostile \u001b]0;pwned\u0007 title', 'a\nforged row', 'red \u001b[31mpaint', 'tab\there', 'c1 \u009b31m', 'del\u007f'];
        for (const name of hostile) {
            const created = await call('POST', '/api/workflows', { name, graph: triggerOnly() });
            expect(created.statusCode, JSON.stringify(name)).toBe(400);
            expect(created.json.message).toContain(message);
            expect(created.json.details).toEqual([expect.objectContaining({ path: 'name', message })]);
        }

        const { workflowId } = (await call('POST', '/api/workflows', { name: 'Plain name', graph: triggerOnly() })).json;
        for (const name of hostile) {
            const renamed = await call('PATCH', `/api/workflows/${workflowId}`, { name });
            expect(renamed.statusCode, JSON.stringify(name)).toBe(400);
            expect(renamed.json.message).toContain(message);
        }

        expect((await call('GET', `/api/workflows/${workflowId}`)).json.name).toBe('Plain name');
        // Text of any script, and a name trimmed of surrounding line breaks, is still a name.
        const ok = await call('PATCH', `/api/workflows/${workflowId}`, { name: '\n Zoë — данные 数据 \n' });
        expect(ok.statusCode).toBe(200);
        expect(ok.json.name).toBe('Zoë — данные 数据');
    });

    it('answers malformed JSON with 400 and other content types with 415', async () => {
        const malformed = await t.request({
            method: 'POST',
            url: '/api/workflows',
            headers: { ...account.headers, 'content-type': 'application/json' },
            payload: '{"name": "x", "graph": {'
        });
        expect(malformed.statusCode).toBe(400);
        expect(malformed.json.message).toMatch(/JSON/);

        const text = await t.request({ method: 'POST', url: '/api/workflows', headers: { ...account.headers, 'content-type': 'text/plain' }, payload: 'name=x' });
        expect(text.statusCode).toBe(415);
        expect(text.json.message).toBe('Send the workflow as JSON with Content-Type: application/json (got text/plain).');
    });

    it('answers 413 to a 5 MB body', async () => {
        const nodes = Array.from({ length: 400 }, (_, i) => ({ id: `n${i}`, type: 'FILTER', data: { source: '{{x.rows}}', expr: 'a'.repeat(12_000) } }));
        const res = await t.request({
            method: 'POST',
            url: '/api/workflows',
            headers: { ...account.headers, 'content-type': 'application/json' },
            payload: JSON.stringify({ name: 'Huge', graph: { nodes, edges: [] } })
        });
        expect(res.statusCode).toBe(413);
        expect(res.json.message).toBe('The request body is larger than 1 MiB: a workflow must fit in 1 MiB of JSON.');
    });

    it('answers 400 with a clear message to 10,000 nodes or 5,001 edges', async () => {
        const nodes = Array.from({ length: 10_000 }, (_, i) => ({ id: `n${i}`, type: 'TRIGGER', data: {} }));
        const many = await call('POST', '/api/workflows', { name: 'Many', graph: { nodes, edges: [] } });
        expect(many.statusCode).toBe(400);
        expect(many.json.details).toEqual([{ path: 'graph.nodes', message: 'a graph may have at most 500 nodes; this one has 10000' }]);

        const edges = Array.from({ length: 5001 }, () => ({ source: 'a', target: 'b' }));
        const tangled = await call('POST', '/api/workflows', { name: 'Tangled', graph: { nodes: [], edges } });
        expect(tangled.json.details).toEqual([{ path: 'graph.edges', message: 'a graph may have at most 5000 edges; this one has 5001' }]);
    });

    it('stores unicode, emoji and SQL-looking names verbatim', async () => {
        for (const name of ['Relatório mensal 📈 — 週報', "Robert'); DROP TABLE workflows;--", '$1 OR 1=1 /* */ \\x00', '👩🏽‍💻'.repeat(20)]) {
            const created = await create(name);
            expect(created.name).toBe(name);
            expect((await call('GET', `/api/workflows/${created.workflowId}`)).json.name).toBe(name);
        }

        expect((await call('GET', '/api/workflows')).statusCode).toBe(200);
    });

    it("rejects an uploadId of another account as not found, in the graph's details", async () => {
        const other = await createAccount(t);
        const theirs = (await uploadCsv(t, other, 'a\n1\n')).json.uploadId;
        const res = await call('POST', '/api/workflows', { name: 'Borrowing', graph: readsUpload(theirs) });
        expect(res.statusCode).toBe(400);
        expect(res.json.details).toEqual([
            { path: 'graph.nodes[1].data.uploadId', message: `upload '${theirs}' not found: upload the CSV first (POST /api/uploads) and use the uploadId it returns` }
        ]);
    });

    it('gives the run worker the stored workflow, and 404 for unknown or foreign ids', async () => {
        const { workflowId } = await create('For the worker', readsUpload(uploadId));
        const stored = await t.app.services.workflows.getWorkflow(account.accountId, workflowId);
        expect(stored).toMatchObject({ id: workflowId, accountId: account.accountId, name: 'For the worker', graph: readsUpload(uploadId), webhookUrl: null });
        expect(stored.createdAt).toBeInstanceOf(Date);

        const other = await createAccount(t);
        await expect(t.app.services.workflows.getWorkflow(other.accountId, workflowId)).rejects.toMatchObject({ output: { statusCode: 404 } });
        await expect(t.app.services.workflows.getWorkflow(account.accountId, 'wf_unknown')).rejects.toThrow("Workflow 'wf_unknown' not found");
    });
});
