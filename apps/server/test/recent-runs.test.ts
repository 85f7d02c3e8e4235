// Issue 33: GET /api/runs, the account's recent runs across its workflows (`flowctl runs list` without
// a workflow), each with its workflow's name, how it was started, its duration and e-mails sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, noMail, runsApi } from './run-fixtures.js';

describe('GET /api/runs', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it("lists the account's runs across workflows, newest first, with names, trigger, duration and e-mails sent", async () => {
        const owner = await createAccount(t);
        const api = runsApi(t, owner);
        const uploadId = await api.upload('name,email,age\nAda,ada@example.test,36\nBob,bob@example.test,20\n');
        const mailing = await api.call('POST', '/api/workflows', { name: 'Mailing', graph: newsletter(uploadId, 'age > 30') });
        const counting = await api.call('POST', '/api/workflows', { name: 'Counting', graph: noMail(uploadId) });
        const mailed = await api.run(mailing.json.workflowId);
        const counted = await api.run(counting.json.workflowId);
        expect([mailed.status, counted.status]).toEqual(['SUCCESS', 'SUCCESS']);
        // A retry as the list sees it (a real one needs refused e-mails): a run that names the run it retries.
        const retried = await api.run(mailing.json.workflowId);
        await t.app.ctx.db.query('UPDATE runs SET retry_of = $1 WHERE id = $2', [mailed.runId, retried.runId]);
        const retry = { json: { runId: retried.runId } };

        // Another account's runs are not listed.
        const stranger = runsApi(t, await createAccount(t));
        await stranger.run(await stranger.workflow(noMail(await stranger.upload('age\n1\n'))));

        const res = await api.call('GET', '/api/runs');
        expect(res.statusCode).toBe(200);
        expect(res.json.map((r: { runId: string }) => r.runId)).toEqual([retry.json.runId, counted.runId, mailed.runId]);
        expect(res.json[2]).toEqual({
            runId: mailed.runId,
            workflowId: mailing.json.workflowId,
            workflowName: 'Mailing',
            status: 'SUCCESS',
            trigger: 'manual',
            retryOf: null,
            createdAt: mailed.createdAt,
            startedAt: mailed.startedAt,
            completedAt: mailed.completedAt,
            durationMs: new Date(mailed.completedAt!).getTime() - new Date(mailed.startedAt!).getTime(),
            emailsSent: 1
        });
        expect(res.json[1]).toMatchObject({ workflowName: 'Counting', trigger: 'manual', emailsSent: 0 });
        expect(res.json[0]).toMatchObject({ workflowName: 'Mailing', trigger: 'retry', retryOf: mailed.runId });
    });

    it('pages like the other lists: Link rel="next" until the last page', async () => {
        const owner = await createAccount(t);
        const api = runsApi(t, owner);
        const workflowId = await api.workflow(noMail(await api.upload('age\n1\n')));
        const ids = [await api.enqueue(workflowId), await api.enqueue(workflowId), await api.enqueue(workflowId)];
        const seen: string[] = [];
        let url: string | undefined = '/api/runs?limit=2';
        while (url) {
            const page = await api.call('GET', url);
            expect(page.statusCode).toBe(200);
            seen.push(...page.json.map((r: { runId: string }) => r.runId));
            url = /<([^>]+)>; rel="next"/.exec((page.headers.link as string | undefined) ?? '')?.[1];
        }

        expect(seen).toEqual([...ids].reverse());
        expect((await api.call('GET', '/api/runs?cursor=nonsense')).statusCode).toBe(400);
        // Well-formed, but past the bigint column: every keyset-paged list answered 500.
        for (const url of ['/api/runs', '/api/workflows', '/api/uploads', '/api/suppressions']) {
            const res = await api.call('GET', `${url}?cursor=zzzzzzzzzzzzz.x`);
            expect([url, res.statusCode, res.json.message]).toEqual([url, 400, expect.stringContaining('cursor')]);
        }
    });

    it('still answers a run by id under /api/workflows/runs/{runId}', async () => {
        const owner = await createAccount(t);
        const api = runsApi(t, owner);
        const runId = await api.enqueue(await api.workflow(noMail(await api.upload('age\n1\n'))));
        expect((await api.get(runId)).runId).toBe(runId);
    });
});
