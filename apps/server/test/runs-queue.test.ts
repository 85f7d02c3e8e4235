import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { loadConfig } from '../src/config.js';
import { type GatedSmtp, startGatedSmtp } from './gated-smtp.js';
import { startTestServer, store, type TestServer } from './harness.js';
import { type OpenAiStub, startOpenAiStub } from './openai-stub.js';
import { ms, newsletter, runsApi } from './run-fixtures.js';

/** A model reply (optionally held until `after` settles). */
const reply = (text: string, after?: Promise<unknown>) => ({ content: JSON.stringify({ text }), ...(after ? { after } : {}) });

describe('runs: queueing, ordering and cancellation', () => {
    let stub: OpenAiStub;
    let smtp: GatedSmtp;
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;
    beforeAll(async () => {
        stub = await startOpenAiStub();
        smtp = await startGatedSmtp();
        // One e-mail at a time, so that holding one holds the run.
        t = await startTestServer({ config: { smtpUrl: smtp.url, smtp: { ...loadConfig({}).smtp, connections: 1 }, ai: { apiKey: 'sk-test', baseUrl: stub.baseUrl, model: 'gpt-test' } } });
        api = runsApi(t, await createAccount(t));
    });
    afterAll(async () => {
        await t.close();
        await stub.close();
        await smtp.close();
    });

    /** TRIGGER -> AI: each run makes one model call, answered when the test says. */
    const simpleAi = () => ({
        nodes: [
            { id: 'start', type: 'TRIGGER', data: {} },
            { id: 'think', type: 'AI', data: { prompt: 'Say something', output: [{ name: 'text', type: 'string' }] } }
        ],
        edges: [{ source: 'start', target: 'think' }]
    });

    it('runs four runs of one workflow one at a time, in enqueue order', async () => {
        const workflowId = await api.workflow(simpleAi());
        const before = stub.requests.length;
        const peakBefore = stub.peak;
        stub.fallback(() => reply('slow', new Promise((resolve) => setTimeout(resolve, 40))));
        const runIds: string[] = [];
        for (let i = 0; i < 4; i++) {
            runIds.push(await api.enqueue(workflowId));
        }

        const runs = [];
        for (const runId of runIds) {
            runs.push(await api.waitFor(runId));
        }

        expect(runs.map((r) => r.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
        expect(stub.requests.length - before).toBe(4);
        expect(stub.peak).toBe(Math.max(peakBefore, 1));
        for (let i = 1; i < runs.length; i++) {
            const [previous, next] = [runs[i - 1]!, runs[i]!];
            expect(ms(next.createdAt)).toBeGreaterThanOrEqual(ms(previous.createdAt));
            // The next run starts only after the previous one completed.
            expect(ms(next.startedAt)).toBeGreaterThanOrEqual(ms(previous.completedAt));
        }

        const list = await api.call('GET', `/api/workflows/${workflowId}/runs?order=asc`);
        expect(list.json.map((r: { runId: string }) => r.runId)).toEqual(runIds);
    });

    it('runs two workflows at the same time', async () => {
        const first = await api.workflow(simpleAi());
        const second = await api.workflow(simpleAi());
        // Neither model call is answered until both are in flight: serialized runs would never finish.
        const both = stub.waitForRequests(stub.requests.length + 2);
        stub.queue(reply('one', both), reply('two', both));
        const runs = await Promise.all([api.run(first), api.run(second)]);
        expect(runs.map((r) => r.status)).toEqual(['SUCCESS', 'SUCCESS']);
        expect(stub.peak).toBeGreaterThanOrEqual(2);
    });

    it('cancels a PENDING run at once and a RUNNING one at its next boundary; the workflow carries on', async () => {
        const workflowId = await api.workflow(simpleAi());
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
            release = resolve;
        });
        const arrived = stub.waitForRequests(stub.requests.length + 1);
        stub.queue(reply('never used', held));
        const running = await api.enqueue(workflowId);
        await arrived;
        const pending = await api.enqueue(workflowId);
        expect((await api.get(pending)).status).toBe('PENDING');

        const cancelPending = await api.call('POST', `/api/workflows/runs/${pending}/cancel`);
        expect(cancelPending.statusCode).toBe(200);
        expect(cancelPending.json).toMatchObject({ runId: pending, status: 'CANCELLED', completedAt: expect.any(String) });
        expect(cancelPending.json.startedAt).toBeUndefined();
        expect(cancelPending.json.nodes.map((n: { status: string }) => n.status)).toEqual(['SKIPPED', 'SKIPPED']);
        expect((await api.call('POST', `/api/workflows/runs/${pending}/cancel`)).statusCode).toBe(409);

        const cancelRunning = await api.call('POST', `/api/workflows/runs/${running}/cancel`);
        expect(cancelRunning.statusCode).toBe(202);
        // This process stops its own run at once: it may have ended before the answer read it back.
        expect(cancelRunning.json).toMatchObject(
            cancelRunning.json.status === 'RUNNING' ? { runId: running, cancelRequestedAt: expect.any(String) } : { runId: running, status: 'CANCELLED' }
        );
        const cancelled = await api.waitFor(running);
        release();
        expect(cancelled.status).toBe('CANCELLED');
        expect(cancelled.completedAt).toEqual(expect.any(String));
        expect(api.node(cancelled, 'start').status).toBe('SUCCESS');
        expect(api.node(cancelled, 'think')).toMatchObject({ status: 'FAILED', error: 'run cancelled' });

        const conflict = await api.call('POST', `/api/workflows/runs/${running}/cancel`);
        expect(conflict.statusCode).toBe(409);
        expect(conflict.json.message).toContain('already ended CANCELLED');

        stub.queue(reply('next'));
        expect((await api.run(workflowId)).status).toBe('SUCCESS');
    });

    it('stops a RUNNING OUTPUT at once, interrupting the e-mail under way, and sends no more', async () => {
        const csv = ['name,email,age,city', ...Array.from({ length: 10 }, (_, i) => `P${i},p${i}@cancel.example.test,${20 + i},Porto`)].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        const acceptedBefore = smtp.accepted.length;
        const third = smtp.holdAt(smtp.accepted.length + 3);
        const runId = await api.enqueue(workflowId);
        const held = await third;
        expect((await api.call('POST', `/api/workflows/runs/${runId}/cancel`)).statusCode).toBe(202);
        // The server never answers the held message: the cancel alone ends the run.
        const run = await api.waitFor(runId);
        const accepted = smtp.accepted.slice(acceptedBefore).map((m) => m.to);
        held.answer(true);
        expect(run.status).toBe('CANCELLED');
        expect(run.result.emailsSent).toBe(2);
        expect(api.node(run, 'send')).toMatchObject({ status: 'FAILED', error: 'run cancelled after 2 of 10 e-mails (2 sent)', output: { emailsSent: 2 } });
        expect(accepted).toEqual(['p0@cancel.example.test', 'p1@cancel.example.test']);
    });
});

// Only a real PostgreSQL server is shared by several processes; the embedded store has one owner.
if (store === 'postgres') describe('runs across processes on one PostgreSQL', () => {
    const LEASE_MS = 900;
    let smtp: GatedSmtp;
    let worker: TestServer;
    let api: TestServer;
    beforeAll(async () => {
        smtp = await startGatedSmtp();
        // One e-mail at a time, so that holding one holds the run.
        worker = await startTestServer({ config: { role: 'worker', smtpUrl: smtp.url, smtp: { ...loadConfig({}).smtp, connections: 1 }, runLeaseMs: LEASE_MS } });
        // Same database and data directory (so the same token secret), no worker of its own.
        api = await startTestServer({ testStore: worker.testStore, config: { role: 'api', runLeaseMs: LEASE_MS } });
    });
    afterAll(async () => {
        await api?.close();
        await worker?.close();
        await smtp?.close();
    });

    it('runs what an API process enqueues, and a cancel sent to it stops the run in the worker process', async () => {
        const calls = runsApi(api, await createAccount(api));
        const csv = ['name,email,age,city', ...Array.from({ length: 5 }, (_, i) => `P${i},p${i}@cross.example.test,${30 + i},Braga`)].join('\n');
        const workflowId = await calls.workflow(newsletter(await calls.upload(csv), 'age > 0'));

        const second = smtp.holdAt(smtp.accepted.length + 2);
        const runId = await calls.enqueue(workflowId);
        const held = await second;
        expect(api.app.ctx.queue.local.get(runId)).toBeUndefined();

        const cancel = await calls.call('POST', `/api/workflows/runs/${runId}/cancel`);
        expect(cancel.statusCode).toBe(202);

        // The worker learns of the cancel from its lease heartbeat and interrupts the held e-mail:
        // the server never answers it, and the run ends.
        const run = await calls.waitFor(runId);
        const accepted = smtp.accepted.map((m) => m.to);
        held.answer(true);
        expect(run.status).toBe('CANCELLED');
        expect(run.result.emailsSent).toBe(1);
        expect(calls.node(run, 'send')).toMatchObject({ status: 'FAILED', error: 'run cancelled after 1 of 5 e-mails (1 sent)' });
        expect(accepted).toEqual(['p0@cross.example.test']);
    });
});
