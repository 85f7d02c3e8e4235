import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { deleteExpiredRuns, deleteUnusedRevisions } from '../src/store/retention.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

// Issue 32 §1: revisions of a workflow, If-Match on PATCH, runs tied to the revision they executed.

describe('workflow revisions', () => {
    let t: TestServer;
    let account: TestAccount;
    let other: TestAccount;
    let api: ReturnType<typeof runsApi>;
    let uploadId: string;

    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
        other = await createAccount(t);
        api = runsApi(t, account);
        uploadId = await api.upload(['name,email,age,city', 'A,a@rev.example.test,30,Porto', 'B,b@rev.example.test,17,Porto'].join('\n'));
    });
    afterAll(() => t.close());

    const patch = (workflowId: string, payload: object, headers: Record<string, string> = {}) =>
        t.request({ method: 'PATCH', url: `/api/workflows/${workflowId}`, headers: { ...account.headers, ...headers }, payload });
    const get = (url: string, who: TestAccount = account) => t.request({ method: 'GET', url, headers: who.headers });

    it('numbers every change of name or graph, and makes none for a change of nothing', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 20'));
        const created = await get(`/api/workflows/${workflowId}`);
        expect(created.json.revision).toBe(1);
        expect(created.headers.etag).toMatch(/^"r1\.[\w-]{12}"$/);

        const renamed = await patch(workflowId, { name: 'renamed' });
        expect(renamed.statusCode, renamed.payload).toBe(200);
        expect(renamed.json.revision).toBe(2);
        expect(renamed.headers.etag).toMatch(/^"r2\.[\w-]{12}"$/);

        // The same name and graph again, and a webhook only: no revision.
        for (const body of [{ name: 'renamed', graph: newsletter(uploadId, 'age > 20') }, { webhookUrl: 'https://hooks.example.test/revisions' }]) {
            const same = await patch(workflowId, body);
            expect(same.statusCode, same.payload).toBe(200);
            expect(same.json.revision).toBe(2);
        }

        const changed = await patch(workflowId, { graph: newsletter(uploadId, 'age > 10') });
        expect(changed.json.revision).toBe(3);

        const list = await get('/api/workflows');
        expect(list.json.find((w: { id: string }) => w.id === workflowId).revision).toBe(3);

        const revisions = await get(`/api/workflows/${workflowId}/revisions`);
        expect(revisions.statusCode).toBe(200);
        expect(revisions.json.map((r: { revision: number; name: string }) => [r.revision, r.name])).toEqual([
            [3, 'renamed'],
            [2, 'renamed'],
            [1, 'test workflow']
        ]);

        const first = await get(`/api/workflows/${workflowId}/revisions/1`);
        expect(first.statusCode).toBe(200);
        expect(first.json).toEqual({ revision: 1, name: 'test workflow', graph: newsletter(uploadId, 'age > 20'), createdAt: created.json.createdAt });
        expect((await get(`/api/workflows/${workflowId}/revisions/2`)).json.graph.nodes[2].data.expr).toBe('age > 20');
        expect((await get(`/api/workflows/${workflowId}/revisions/3`)).json.graph.nodes[2].data.expr).toBe('age > 10');
    });

    it('pages revisions with limit and a Link header', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 0'));
        for (let i = 1; i <= 4; i++) {
            expect((await patch(workflowId, { name: `name ${i}` })).json.revision).toBe(i + 1);
        }

        const seen: number[] = [];
        let url: string | null = `/api/workflows/${workflowId}/revisions?limit=2`;
        while (url) {
            const page = await get(url);
            expect(page.statusCode, page.payload).toBe(200);
            seen.push(...page.json.map((r: { revision: number }) => r.revision));
            url = /<([^>]+)>; rel="next"/.exec((page.headers.link as string | undefined) ?? '')?.[1] ?? null;
        }

        expect(seen).toEqual([5, 4, 3, 2, 1]);
        expect((await get(`/api/workflows/${workflowId}/revisions?cursor=nonsense`)).statusCode).toBe(400);
        expect((await get(`/api/workflows/${workflowId}/revisions?cursor=vzzzzzzz`)).statusCode).toBe(400);
        expect((await get(`/api/workflows/${workflowId}/revisions?cursor=vzzzzzz`)).statusCode).toBe(400);
    });

    it('refuses a stale If-Match with 412 and writes nothing; a bad one with 400', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 0'));
        expect((await patch(workflowId, { name: 'second' }, { 'if-match': '"r1"' })).statusCode).toBe(200);

        const stale = await patch(workflowId, { name: 'lost' }, { 'if-match': '"r1"' });
        expect(stale.statusCode).toBe(412);
        expect(stale.json.message).toMatch(/is at revision 2, not 1/);
        expect(stale.json.revision).toBe(2);
        for (const tag of ['W/"r2"', '"abc"']) {
            const foreign = await patch(workflowId, { name: 'lost' }, { 'if-match': tag });
            expect(foreign.statusCode).toBe(412);
            expect(foreign.json.message).toMatch(/is at revision 2, and If-Match names none of its revisions/);
        }

        expect((await get(`/api/workflows/${workflowId}`)).json).toMatchObject({ name: 'second', revision: 2 });

        for (const tag of ['r2', '"r2', '"r1", "r2"']) {
            const bad = await patch(workflowId, { name: 'bad' }, { 'if-match': tag });
            expect(bad.statusCode, tag).toBe(400);
            expect(bad.json.message).toMatch(/If-Match must be one entity tag/);
        }

        expect((await patch(workflowId, { name: 'any' }, { 'if-match': '*' })).json.revision).toBe(3);
        expect((await patch(workflowId, { name: 'third' }, { 'if-match': '"r3"' })).json.revision).toBe(4);
    });

    it('lets one of two writers racing from the same revision win, and tells the other', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 0'));
        const answers = await Promise.all(
            ['age > 1', 'age > 2', 'age > 3', 'age > 4'].map((expr) => patch(workflowId, { graph: newsletter(uploadId, expr) }, { 'if-match': '"r1"' }))
        );
        expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 412, 412, 412]);
        const winner = answers.find((a) => a.statusCode === 200)!;
        const now = await get(`/api/workflows/${workflowId}`);
        expect(now.json.revision).toBe(2);
        expect(now.json.graph).toEqual(winner.json.graph);
        expect((await get(`/api/workflows/${workflowId}/revisions`)).json).toHaveLength(2);
    });

    it('restores a revision as a new one, and restoring the current one changes nothing', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 20'));
        await patch(workflowId, { name: 'changed', graph: newsletter(uploadId, 'age > 5') });
        const url = (n: number) => `/api/workflows/${workflowId}/revisions/${n}/restore`;

        const restored = await t.request({ method: 'POST', url: url(1), headers: account.headers });
        expect(restored.statusCode, restored.payload).toBe(200);
        expect(restored.json).toMatchObject({ id: workflowId, name: 'test workflow', revision: 3, graph: newsletter(uploadId, 'age > 20') });
        expect(restored.headers.etag).toMatch(/^"r3\.[\w-]{12}"$/);

        const again = await t.request({ method: 'POST', url: url(3), headers: account.headers });
        expect(again.json.revision).toBe(3);
        const stale = await t.request({ method: 'POST', url: url(2), headers: { ...account.headers, 'if-match': '"r2"' } });
        expect(stale.statusCode).toBe(412);
    });

    it('answers 404 for a revision that does not exist, 400 for one that is not a revision number', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 0'));
        const missing = await get(`/api/workflows/${workflowId}/revisions/2`);
        expect(missing.statusCode).toBe(404);
        expect(missing.json.message).toMatch(/has no revision 2: its newest is 1/);
        expect((await t.request({ method: 'POST', url: `/api/workflows/${workflowId}/revisions/9/restore`, headers: account.headers })).statusCode).toBe(404);
        for (const n of ['0', '-1', 'abc', '1.5', '99999999999']) {
            const bad = await get(`/api/workflows/${workflowId}/revisions/${n}`);
            expect(bad.statusCode, n).toBe(400);
        }

        expect((await get('/api/workflows/wf_unknown/revisions')).statusCode).toBe(404);
    });

    it("answers 404 on every revisions route for another account's workflow, whatever else the request says", async () => {
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 0'));
        const theirs = [
            get(`/api/workflows/${workflowId}/revisions`, other),
            get(`/api/workflows/${workflowId}/revisions?cursor=nonsense`, other),
            get(`/api/workflows/${workflowId}/revisions/1`, other),
            get(`/api/workflows/${workflowId}/revisions/abc`, other),
            t.request({ method: 'POST', url: `/api/workflows/${workflowId}/revisions/1/restore`, headers: { ...other.headers, 'if-match': 'garbage' } }),
            t.request({ method: 'PATCH', url: `/api/workflows/${workflowId}`, headers: { ...other.headers, 'if-match': 'garbage' }, payload: { name: 'x' } })
        ];
        for (const res of await Promise.all(theirs)) {
            expect(res.statusCode, res.request.url.href).toBe(404);
        }

        expect((await get(`/api/workflows/${workflowId}`)).json.revision).toBe(1);
    });

    it('ties each run to the revision it executed; a retry runs its run’s revision unless asked for the latest', async () => {
        const csv = ['name,email,age,city', 'A,a@tie.example.test,30,Porto', 'B,b@tie.example.test,31,Porto'].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        t.smtp.failNext(2, 550);
        const failed = await api.run(workflowId);
        expect(failed).toMatchObject({ status: 'FAILED', revision: 1 });

        // The workflow changes: a node renamed. The run still shows the nodes of revision 1.
        const graph = newsletter(uploadId, 'age > 0');
        graph.nodes[2]!.id = 'grown-ups';
        graph.edges[1]!.target = 'grown-ups';
        graph.edges[2]!.source = 'grown-ups';
        (graph.nodes[3]!.data as { forEach: string }).forEach = '{{grown-ups.items}}';
        expect((await patch(workflowId, { graph })).json.revision).toBe(2);
        expect((await api.get(failed.runId)).nodes.map((n) => n.nodeId)).toEqual(['start', 'people', 'audience', 'send']);

        const next = await api.run(workflowId);
        expect(next.revision).toBe(2);
        expect(next.nodes.map((n) => n.nodeId)).toEqual(['start', 'people', 'grown-ups', 'send']);

        const listed = await api.call('GET', `/api/workflows/${workflowId}/runs?order=asc`);
        expect(listed.json.map((r: { runId: string; revision: number }) => [r.runId, r.revision])).toEqual([
            [failed.runId, 1],
            [next.runId, 2]
        ]);

        t.smtp.failNext(1, 550);
        const own = await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`);
        expect(own.statusCode, own.payload).toBe(202);
        const ownRun = await api.waitFor(own.json.runId);
        expect(ownRun.revision).toBe(1);

        const latest = await api.call('POST', `/api/workflows/runs/${ownRun.runId}/retry`, { revision: 'latest' });
        expect(latest.statusCode, latest.payload).toBe(202);
        const latestRun = await api.waitFor(latest.json.runId);
        expect(latestRun.revision).toBe(2);
        expect(latestRun.status).toBe('SUCCESS');

        const bad = await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`, { revision: 3 });
        expect(bad.statusCode).toBe(400);
        expect(bad.json.message).toMatch(/revision must be .latest./);
    });

    it('deletes the revisions with their workflow', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 0'));
        await patch(workflowId, { name: 'two' });
        await api.run(workflowId);
        expect((await t.request({ method: 'DELETE', url: `/api/workflows/${workflowId}`, headers: account.headers })).statusCode).toBe(204);
        const left = await t.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM workflow_revisions WHERE workflow_id = $1', [workflowId]);
        expect(left[0]?.n).toBe(0);
        expect((await get(`/api/workflows/${workflowId}/revisions`)).statusCode).toBe(404);
    });

    it('keeps revisions that runs name as long as the runs, and the newest 100 always', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 0'));
        const run = await api.run(workflowId);
        expect(run.revision).toBe(1);
        for (let i = 2; i <= 103; i++) {
            expect((await patch(workflowId, { name: `name ${i}` })).json.revision).toBe(i);
        }

        const kept = async () =>
            (await t.app.ctx.db.query<{ revision: number }>('SELECT revision FROM workflow_revisions WHERE workflow_id = $1 ORDER BY revision', [workflowId])).map(
                (row) => row.revision
            );
        const newest = Array.from({ length: 100 }, (_, i) => i + 4);

        await deleteUnusedRevisions(t.app.ctx.db);
        expect(await kept()).toEqual([1, ...newest]);
        const gone = await get(`/api/workflows/${workflowId}/revisions/2`);
        expect(gone.statusCode).toBe(404);
        expect(gone.json.message).toMatch(/is no longer kept/);
        expect((await api.get(run.runId)).nodes).toHaveLength(4);

        // The run goes past RUN_RETENTION_DAYS; its revision follows it.
        await t.app.ctx.db.query("UPDATE runs SET completed_at = now() - interval '31 days' WHERE id = $1", [run.runId]);
        expect(await deleteExpiredRuns(t.app.ctx.db, 30)).toBeGreaterThanOrEqual(1);
        await deleteUnusedRevisions(t.app.ctx.db);
        expect(await kept()).toEqual(newest);
    });
});
