import Http from 'node:http';

import { MAX_NODE_ID_LENGTH } from '@flowctl/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { deliverWebhook } from '../src/worker/webhooks.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { runsApi } from './run-fixtures.js';
import { uploadCsv } from './upload-fixtures.js';

const trigger = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
const nextOf = (link: unknown): string | null => (typeof link === 'string' ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null);

describe('consistency a client relies on', () => {
    let t: TestServer;
    let account: TestAccount;
    beforeAll(async () => {
        t = await startTestServer({ config: { allowPrivateNetwork: true } });
        account = await createAccount(t);
    });
    afterAll(() => t.close());

    const get = (url: string, who = account) => t.request({ method: 'GET', url, headers: who.headers });

    /** Every item of a list, page by page, following the Link headers. */
    const walk = async (first: string): Promise<{ pages: number; ids: string[] }> => {
        const ids: string[] = [];
        let pages = 0;
        for (let url: string | null = first; url; ) {
            const res = await get(url);
            expect(res.statusCode).toBe(200);
            ids.push(...res.json.map((item: { id?: string; uploadId?: string }) => item.id ?? item.uploadId));
            pages += 1;
            url = nextOf(res.headers.link);
        }

        return { pages, ids };
    };

    it('pages the workflows and uploads lists like the runs list: limit, cursor, Link', async () => {
        const workflows: string[] = [];
        const uploads: string[] = [];
        for (let i = 0; i < 5; i++) {
            const created = await t.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: `w${i}`, graph: trigger } });
            workflows.unshift(created.json.workflowId);
            uploads.unshift((await uploadCsv(t, account, `a\n${i}\n`)).json.uploadId);
        }

        expect(await walk('/api/workflows?limit=2')).toEqual({ pages: 3, ids: workflows });
        expect(await walk('/api/uploads?limit=2')).toEqual({ pages: 3, ids: uploads });
        expect((await get('/api/workflows')).headers.link).toBeUndefined();

        // A cursor stays valid when the row it names is deleted meanwhile.
        const first = await get('/api/workflows?limit=2');
        await t.request({ method: 'DELETE', url: `/api/workflows/${workflows[1]}`, headers: account.headers });
        expect((await get(nextOf(first.headers.link)!)).json.map((w: { id: string }) => w.id)).toEqual(workflows.slice(2, 4));

        for (const url of ['/api/workflows?limit=0', '/api/uploads?limit=501', '/api/uploads?cursor=nonsense']) {
            const res = await get(url);
            expect(res.statusCode, url).toBe(400);
        }
    });

    it('answers 400 to an unknown query parameter on every route alike', async () => {
        const workflowId = (await t.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: 'q', graph: trigger } })).json.workflowId;
        for (const url of ['/api/workflows?sort=name', `/api/workflows/${workflowId}?x=1`, '/api/uploads?page=2', '/api/account/settings?debug=1', `/api/workflows/${workflowId}/runs?page=2`, '/healthz?x=1']) {
            const res = await get(url);
            expect(res.statusCode, url).toBe(400);
            expect(res.json.message, url).toMatch(/^Invalid request query: '\w+' is not allowed$/);
        }
    });

    it("answers 404 for another account's workflow whatever the request body", async () => {
        const workflowId = (await t.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: 'mine', graph: trigger } })).json.workflowId;
        const stranger = await createAccount(t);
        for (const payload of [{}, { name: 5 }, { graph: 'no' }, { name: 'taken' }]) {
            const res = await t.request({ method: 'PATCH', url: `/api/workflows/${workflowId}`, headers: stranger.headers, payload });
            expect(res.statusCode, JSON.stringify(payload)).toBe(404);
        }

        // The owner still gets the validation error.
        expect((await t.request({ method: 'PATCH', url: `/api/workflows/${workflowId}`, headers: account.headers, payload: { name: 5 } })).statusCode).toBe(400);
    });

    it('limits node ids at create time as the node-output route does', async () => {
        const long = 'n'.repeat(MAX_NODE_ID_LENGTH + 1);
        const res = await t.request({
            method: 'POST',
            url: '/api/workflows',
            headers: account.headers,
            payload: { name: 'long ids', graph: { nodes: [{ id: long, type: 'TRIGGER', data: {} }], edges: [] } }
        });
        expect(res.statusCode).toBe(400);
        expect(res.json.details).toContainEqual({ path: 'graph.nodes[0].id', message: `node id is ${MAX_NODE_ID_LENGTH + 1} characters long; at most ${MAX_NODE_ID_LENGTH}` });

        const run = await runsApi(t, account).run(await runsApi(t, account).workflow(trigger));
        const output = await get(`/api/workflows/runs/${run.runId}/nodes/${long}/output`);
        expect(output.statusCode).toBe(400);
        expect((await get(`/api/workflows/runs/${run.runId}/nodes/${'n'.repeat(MAX_NODE_ID_LENGTH)}/output`)).statusCode).toBe(404);
    });

    it('never shows webhookUrl credentials back, and posts with them as Basic auth', async () => {
        const authorizations: (string | undefined)[] = [];
        const hook = Http.createServer((req, res) => {
            authorizations.push(req.headers.authorization);
            req.resume().on('end', () => res.writeHead(204).end());
        });
        await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
        try {
            const port = (hook.address() as { port: number }).port;
            const api = runsApi(t, account);
            const workflowId = await api.workflow(trigger, { webhookUrl: `http://hook%20user:s3cr%3At@127.0.0.1:${port}/hook` });
            const detail = await get(`/api/workflows/${workflowId}`);
            expect(detail.json.webhookUrl).toBe(`http://127.0.0.1:${port}/hook`);
            expect(detail.payload).not.toContain('s3cr');
            const patched = await t.request({ method: 'PATCH', url: `/api/workflows/${workflowId}`, headers: account.headers, payload: { name: 'renamed' } });
            expect(patched.json.webhookUrl).toBe(`http://127.0.0.1:${port}/hook`);

            const run = await api.run(workflowId);
            const env = { db: t.app.ctx.db, encryptionKey: t.app.ctx.secrets.encryptionKey, log: t.app.ctx.log, allowPrivateNetwork: true };
            await deliverWebhook(env, run.runId, 1);
            expect(authorizations).toContain(`Basic ${Buffer.from('hook user:s3cr:t').toString('base64')}`);
        } finally {
            hook.closeAllConnections();
            await new Promise<void>((resolve) => hook.close(() => resolve()));
        }
    });
});
