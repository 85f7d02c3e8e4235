import Crypto from 'node:crypto';
import Http from 'node:http';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { deliverWebhook } from '../src/worker/webhooks.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { runsApi } from './run-fixtures.js';

const trigger = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };

/** `</path?query>; rel="next"` -> '/path?query'. */
const nextOf = (link: string | string[] | undefined): string | null => (typeof link === 'string' ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null);

describe('runs: reading, listing, paging and webhooks over HTTP', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;
    beforeAll(async () => {
        // A short lease makes Agenda poll often, so a webhook retry runs within a second or two.
        // The webhook receivers listen on loopback.
        t = await startTestServer({ config: { runLeaseMs: 2000, allowPrivateNetwork: true } });
        account = await createAccount(t);
        api = runsApi(t, account);
    });
    afterAll(() => t.close());

    it('answers 404 for unknown ids and for another account’s runs and workflows', async () => {
        const workflowId = await api.workflow(trigger);
        const run = await api.run(workflowId);
        const stranger = runsApi(t, await createAccount(t));
        for (const [method, url] of [
            ['GET', `/api/workflows/runs/${run.runId}`],
            ['GET', `/api/workflows/runs/${run.runId}/nodes/start/output`],
            ['POST', `/api/workflows/runs/${run.runId}/cancel`],
            ['GET', `/api/workflows/${workflowId}/runs`],
            ['POST', `/api/workflows/${workflowId}/run`],
            ['GET', `/api/workflows/${workflowId}/webhook-secret`],
            ['GET', '/api/workflows/runs/run_doesnotexist'],
            ['POST', '/api/workflows/wf_doesnotexist/run'],
            ['GET', '/api/workflows/wf_doesnotexist/runs']
        ] as const) {
            const res = await stranger.call(method, url);
            expect(res.statusCode, `${method} ${url}`).toBe(404);
            expect(res.json).toMatchObject({ statusCode: 404, error: 'Not Found' });
        }

        expect((await api.call('GET', `/api/workflows/runs/${run.runId}/nodes/nope/output`)).json.message).toBe(`Run '${run.runId}' has no node 'nope'`);
        expect((await api.call('GET', '/api/workflows/runs/run_doesnotexist')).json.message).toBe("Run 'run_doesnotexist' not found");
    });

    it('lists runs most recent first, pages them through the Link header, and oldest first with order=asc', async () => {
        const workflowId = await api.workflow(trigger);
        const runIds: string[] = [];
        for (let i = 0; i < 7; i++) {
            runIds.push(await api.enqueue(workflowId));
        }

        const all = await api.call('GET', `/api/workflows/${workflowId}/runs`);
        expect(all.statusCode).toBe(200);
        expect(all.headers.link).toBeUndefined();
        expect(all.json.map((r: { runId: string }) => r.runId)).toEqual([...runIds].reverse());
        for (const entry of all.json) {
            expect(Object.keys(entry).sort()).toEqual(['createdAt', 'revision', 'runId', 'status', 'trigger', 'workflowId']);
            expect(entry.trigger).toEqual({ type: 'manual' });
            expect(entry.workflowId).toBe(workflowId);
        }

        for (const order of ['desc', 'asc']) {
            const seen: string[] = [];
            let url: string | null = `/api/workflows/${workflowId}/runs?limit=3&order=${order}`;
            while (url) {
                const page = await api.call('GET', url);
                expect(page.statusCode).toBe(200);
                expect(page.json.length).toBeLessThanOrEqual(3);
                seen.push(...page.json.map((r: { runId: string }) => r.runId));
                url = nextOf(page.headers.link);
            }

            expect(seen).toEqual(order === 'asc' ? runIds : [...runIds].reverse());
        }

        const empty = await api.call('GET', `/api/workflows/${await api.workflow(trigger)}/runs`);
        expect(empty.statusCode).toBe(200);
        expect(empty.json).toEqual([]);
    });

    it('rejects bad list and page parameters with 400 and the reason', async () => {
        const workflowId = await api.workflow(trigger);
        const runId = await api.enqueue(workflowId);
        for (const query of ['limit=0', 'limit=501', 'limit=ten', 'order=sideways', 'cursor=garbage!']) {
            const res = await api.call('GET', `/api/workflows/${workflowId}/runs?${query}`);
            expect(res.statusCode, query).toBe(400);
            expect(res.json.message).toEqual(expect.any(String));
        }

        expect((await api.call('GET', `/api/workflows/${workflowId}/runs?cursor=zzzz`)).json.message).toContain('Invalid cursor');
        for (const query of ['offset=-1', 'limit=0', 'limit=1001']) {
            expect((await api.call('GET', `/api/workflows/runs/${runId}/nodes/start/output?${query}`)).statusCode, query).toBe(400);
        }
    });

    it('summarizes large outputs in the run detail and pages through them whole', async () => {
        const csv = ['n,label', ...Array.from({ length: 250 }, (_, i) => `${i},row ${i}`)].join('\n');
        const graph = {
            nodes: [
                { id: 'start', type: 'TRIGGER', data: {} },
                { id: 'rows', type: 'DATA_SOURCE', data: { uploadId: await api.upload(csv) } },
                { id: 'even', type: 'FILTER', data: { source: '{{rows.rows}}', expr: 'n >= 100' } }
            ],
            edges: [
                { source: 'start', target: 'rows' },
                { source: 'rows', target: 'even' }
            ]
        };
        const run = await api.run(await api.workflow(graph));
        expect(run.status).toBe('SUCCESS');
        expect(api.node(run, 'rows').output).toEqual({
            rows: { count: 250, first: [0, 1, 2, 3, 4].map((n) => ({ n, label: `row ${n}` })) },
            count: 250
        });
        expect(api.node(run, 'even').output).toMatchObject({ items: { count: 150 }, count: 150 });

        const rows: unknown[] = [];
        let url: string | null = `/api/workflows/runs/${run.runId}/nodes/rows/output?limit=100`;
        while (url) {
            const page = await api.call('GET', url);
            expect(page.statusCode).toBe(200);
            expect(page.json).toMatchObject({ runId: run.runId, nodeId: 'rows', status: 'SUCCESS', total: 250 });
            rows.push(...page.json.output.rows);
            url = nextOf(page.headers.link);
        }

        expect(rows).toHaveLength(250);
        expect(rows[249]).toEqual({ n: 249, label: 'row 249' });
        const tail = await api.call('GET', `/api/workflows/runs/${run.runId}/nodes/even/output?offset=140&limit=50`);
        expect(tail.json.output.items.map((item: { n: number }) => item.n)).toEqual([240, 241, 242, 243, 244, 245, 246, 247, 248, 249]);
        expect(tail.headers.link).toBeUndefined();
        expect((await api.call('GET', `/api/workflows/runs/${run.runId}/nodes/start/output`)).json).toMatchObject({ output: {}, total: 0 });
    });

    it('enqueues without a body and ignores one if sent', async () => {
        const workflowId = await api.workflow(trigger);
        const res = await t.request({ method: 'POST', url: `/api/workflows/${workflowId}/run`, headers: { ...account.headers, 'content-type': 'text/plain' }, payload: 'ignored' });
        expect(res.statusCode).toBe(202);
        expect((await api.waitFor(res.json.runId)).status).toBe('SUCCESS');
    });

    it('POSTs a signed summary to the workflow webhook when a run ends, retrying until it is accepted', async () => {
        const received: { body: string; signature: string | undefined; event: string | undefined }[] = [];
        const hook = Http.createServer((req, res) => {
            const chunks: Buffer[] = [];
            req.on('data', (chunk: Buffer) => chunks.push(chunk));
            req.on('end', () => {
                received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: req.headers['x-flowctl-signature'] as string, event: req.headers['x-flowctl-event'] as string });
                // The first delivery fails: the second must come by itself.
                res.writeHead(received.length === 1 ? 503 : 204);
                res.end();
            });
        });
        await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
        try {
            const webhookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hooks/flowctl`;
            const workflowId = await api.workflow(trigger, { webhookUrl });
            const run = await api.run(workflowId);

            const deadline = Date.now() + 15_000;
            while (received.length < 2 && Date.now() < deadline) {
                await new Promise((resolve) => setTimeout(resolve, 50));
            }

            expect(received).toHaveLength(2);
            expect(received[1]!.body).toBe(received[0]!.body);
            expect(JSON.parse(received[1]!.body)).toEqual({
                event: 'run.completed',
                runId: run.runId,
                workflowId,
                status: 'SUCCESS',
                result: { totalRows: 0, filteredOut: 0, emailsSent: 0 },
                completedAt: run.completedAt
            });
            expect(received[1]!.event).toBe('run.completed');

            const secret = await api.call('GET', `/api/workflows/${workflowId}/webhook-secret`);
            expect(secret.statusCode).toBe(200);
            expect(secret.json.webhookSecret).toMatch(/^whsec_/);
            const expected = `sha256=${Crypto.createHmac('sha256', secret.json.webhookSecret).update(received[1]!.body).digest('hex')}`;
            expect(received[1]!.signature).toBe(expected);

            const rotated = await api.call('POST', `/api/workflows/${workflowId}/webhook-secret`);
            expect(rotated.json.webhookSecret).not.toBe(secret.json.webhookSecret);
            expect((await api.call('GET', `/api/workflows/${workflowId}/webhook-secret`)).json.webhookSecret).toBe(rotated.json.webhookSecret);
        } finally {
            hook.closeAllConnections();
            await new Promise<void>((resolve) => hook.close(() => resolve()));
        }
    });

    it('does not deliver, nor retry, a webhook whose name resolves to a private address when the server does not allow it', async () => {
        let received = 0;
        const hook = Http.createServer((_req, res) => {
            received += 1;
            res.writeHead(204);
            res.end();
        });
        await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
        try {
            // By name: a literal private address would already be refused when saved.
            const webhookUrl = `http://localhost:${(hook.address() as { port: number }).port}/hook`;
            const run = await api.run(await api.workflow(trigger, { webhookUrl }));
            await vi.waitFor(() => expect(received).toBe(1), { timeout: 15_000 });

            const warnings: unknown[] = [];
            const log = { warn: (fields: unknown, message: string) => warnings.push({ fields, message }) } as never;
            const env = { db: t.app.ctx.db, encryptionKey: t.app.ctx.secrets.encryptionKey, log, allowPrivateNetwork: false };
            await expect(deliverWebhook(env, run.runId, 1)).resolves.toBeUndefined();
            expect(received).toBe(1);
            expect(warnings).toEqual([
                {
                    fields: { runId: run.runId, workflowId: run.workflowId, err: expect.stringMatching(/^localhost is a private or local address \((127\.0\.0\.1|::1)\)/) },
                    message: 'webhook not sent'
                }
            ]);
        } finally {
            hook.closeAllConnections();
            await new Promise<void>((resolve) => hook.close(() => resolve()));
        }
    });
});
