import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { type OpenAiStub, type StubReply, startOpenAiStub } from './openai-stub.js';
import type { Json } from './run-fixtures.js';
import { runsApi } from './run-fixtures.js';

// "Never paid twice", the retry half: a run that failed (or was cancelled) at an AI node is retried,
// and the retry asks the model only for the elements whose reply was not recorded for that run, then
// sends each recipient one e-mail. A real OpenAI-protocol server counts the calls, a real SMTP server
// the e-mails.

const CONCURRENCY = 4;
const TOTAL = 30;

const people = (domain: string, rows: number) => ['name,email', ...Array.from({ length: rows }, (_, i) => `P${i},p${i}@${domain}`)].join('\n');

/** TRIGGER -> people -> writer (one call per row) -> send (one e-mail per row with its own line). */
const perRow = (uploadId: string, prompt = 'Write for {{item.name}}') => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'writer', type: 'AI', data: { forEach: '{{people.rows}}', prompt, output: [{ name: 'line', type: 'string' }] } },
        { id: 'send', type: 'OUTPUT', data: { forEach: '{{writer.items}}', to: '{{item.email}}', subject: 'For {{item.name}}', body: '{{item.line}}' } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'writer' },
        { source: 'writer', target: 'send' }
    ]
});

/** The rendered prompt: the first user message (a correction adds others after it). */
const prompt = (body: Json): string => body.messages.find((m: Json) => m.role === 'user').content;
/** Whom a request is for: the row's name at the end of the rendered prompt. */
const whom = (body: Json): string => /(P\d+)$/.exec(prompt(body))?.[1] ?? '?';
const rowOf = (body: Json): number => Number(whom(body).slice(1));
const lineFor = (body: Json): StubReply => ({ content: JSON.stringify({ line: `line for ${whom(body)}` }) });

describe('runs: retrying a run that stopped at an AI node', () => {
    let stub: OpenAiStub;
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;
    beforeAll(async () => {
        stub = await startOpenAiStub();
        t = await startTestServer({
            config: { ai: { apiKey: 'sk-retry', baseUrl: stub.baseUrl, model: 'gpt-retry' }, aiConcurrency: CONCURRENCY, allowPrivateNetwork: true }
        });
        api = runsApi(t, await createAccount(t));
    });
    afterAll(async () => {
        await t.close();
        await stub.close();
    });

    /** Elements whose reply is recorded for a run's writer node. */
    const recorded = async (runId: string): Promise<number[]> => {
        const rows = await t.app.ctx.db.query<{ element_index: number }>(
            "SELECT element_index FROM ai_replies WHERE run_id = $1 AND node_id = 'writer' ORDER BY element_index",
            [runId]
        );
        return rows.map((row) => row.element_index);
    };

    /** Each recipient of `domain` got exactly one e-mail, with its own line. */
    const expectOneEachWithOwnLine = (domain: string, rows: number) => {
        const mails = t.smtp.messages.filter((m) => m.to[0]?.endsWith(`@${domain}`));
        expect(mails.map((m) => m.to[0]).sort()).toEqual(Array.from({ length: rows }, (_, i) => `p${i}@${domain}`).sort());
        for (const mail of mails) {
            expect(mail.text.trim()).toBe(`line for ${mail.subject.replace('For ', '')}`);
        }
    };

    it('after a 401 part-way through, a retry asks only for the elements without a recorded reply, and each recipient gets one e-mail', async () => {
        const domain = 'denied.example.test';
        // The key is refused from row 12 on: the node fails with the replies it got so far recorded.
        stub.fallback((body) => (rowOf(body) < 12 ? lineFor(body) : { status: 401, error: 'Incorrect API key provided' }));
        const workflowId = await api.workflow(perRow(await api.upload(people(domain, TOTAL))));
        const failed = await api.run(workflowId);
        expect(failed.status).toBe('FAILED');
        expect(api.node(failed, 'writer')).toMatchObject({ status: 'FAILED', error: 'the language-model endpoint answered HTTP 401 (check the AI API key): 401 Incorrect API key provided' });
        expect(api.node(failed, 'send').status).toBe('SKIPPED');
        const kept = await recorded(failed.runId);
        expect(kept.length).toBeGreaterThan(0);
        expect(kept.every((i) => i < 12)).toBe(true);

        // The key works again.
        await stub.waitForIdle();
        const before = stub.requests.length;
        stub.fallback(lineFor);
        const res = await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`);
        expect(res.statusCode, res.payload).toBe(202);
        expect(res.json).toEqual({ runId: expect.any(String), status: 'PENDING', workflowId, triggeredAt: expect.any(String) });
        const retry = await api.waitFor(res.json.runId);
        expect(retry).toMatchObject({ status: 'SUCCESS', retryOf: failed.runId, error: null, result: { totalRows: TOTAL, emailsSent: TOTAL, aiCalls: TOTAL - kept.length } });
        expect(retry.nodes.map((n) => [n.nodeId, n.status])).toEqual([
            ['start', 'SUCCESS'],
            ['people', 'SUCCESS'],
            ['writer', 'SUCCESS'],
            ['send', 'SUCCESS']
        ]);

        // Exactly the elements without a recorded reply were asked for, once each.
        const asked = stub.requests.slice(before).map((r) => rowOf(r.body));
        expect(asked).toHaveLength(TOTAL - kept.length);
        expect(asked.sort((a, b) => a - b)).toEqual(Array.from({ length: TOTAL }, (_, i) => i).filter((i) => !kept.includes(i)));
        const page = await api.call('GET', `/api/workflows/runs/${retry.runId}/nodes/writer/output?limit=${TOTAL}`);
        expect(page.json.output.line).toEqual(Array.from({ length: TOTAL }, (_, i) => `line for P${i}`));
        expectOneEachWithOwnLine(domain, TOTAL);

        // The retry succeeded: nothing is left to retry.
        expect((await api.call('POST', `/api/workflows/runs/${retry.runId}/retry`)).statusCode).toBe(409);
    });

    it('after a cancel in the middle of the node, a retry asks only for the elements without a recorded reply', async () => {
        const domain = 'cancelled.example.test';
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
            release = resolve;
        });
        // The first six rows are answered; the rest are held until the run is cancelled.
        stub.fallback((body) => ({ ...lineFor(body), ...(rowOf(body) < 6 ? {} : { after: held }) }));
        const runId = await api.enqueue(await api.workflow(perRow(await api.upload(people(domain, TOTAL)))));
        await api.waitFor(runId, (run) => api.node(run, 'writer').output?.aiDone === 6);
        expect((await api.call('POST', `/api/workflows/runs/${runId}/cancel`)).statusCode).toBe(202);
        const cancelled = await api.waitFor(runId);
        expect(cancelled.status).toBe('CANCELLED');
        expect(api.node(cancelled, 'writer').error).toBe(`run cancelled after 6 of ${TOTAL} language-model calls`);
        await stub.waitForIdle();
        release();
        expect(await recorded(runId)).toEqual([0, 1, 2, 3, 4, 5]);

        const before = stub.requests.length;
        stub.fallback(lineFor);
        const res = await api.call('POST', `/api/workflows/runs/${runId}/retry`);
        expect(res.statusCode, res.payload).toBe(202);
        const retry = await api.waitFor(res.json.runId);
        expect(retry).toMatchObject({ status: 'SUCCESS', retryOf: runId, result: { emailsSent: TOTAL, aiCalls: TOTAL - 6 } });
        expect(stub.requests.slice(before).map((r) => rowOf(r.body)).sort((a, b) => a - b)).toEqual(Array.from({ length: TOTAL - 6 }, (_, i) => i + 6));
        expectOneEachWithOwnLine(domain, TOTAL);
    });

    it("retries from the failed run's graph snapshot: a prompt changed since does not apply, and a reply is reused only for the very request it answered", async () => {
        const domain = 'snapshot.example.test';
        // Row 20's reply never matches the schema (asked twice): the node fails.
        stub.fallback((body) => (rowOf(body) === 20 ? { content: JSON.stringify({ wrong: true }) } : lineFor(body)));
        const uploadId = await api.upload(people(domain, TOTAL));
        const workflowId = await api.workflow(perRow(uploadId));
        const failed = await api.run(workflowId);
        expect(failed.status).toBe('FAILED');
        expect(api.node(failed, 'writer').error).toMatch(/^language-model reply did not match the declared output schema: element #20: /);
        await stub.waitForIdle();
        const kept = await recorded(failed.runId);
        expect(kept.length).toBeGreaterThan(2);

        // The workflow's prompt changes after the failure; and two recorded replies answered, as far as
        // their hash tells, another request (as if their rows had changed): those are asked again.
        const patch = await api.call('PATCH', `/api/workflows/${workflowId}`, { graph: perRow(uploadId, 'Write anew for {{item.name}}') });
        expect(patch.statusCode, patch.payload).toBe(200);
        const changed = kept.slice(0, 2);
        await t.app.ctx.db.query("UPDATE ai_replies SET request_hash = 'another request' WHERE run_id = $1 AND element_index = ANY($2::int[])", [failed.runId, changed]);

        const before = stub.requests.length;
        stub.fallback(lineFor);
        const res = await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`);
        expect(res.statusCode, res.payload).toBe(202);
        const retry = await api.waitFor(res.json.runId);
        expect(retry).toMatchObject({ status: 'SUCCESS', retryOf: failed.runId, result: { emailsSent: TOTAL } });
        const requests = stub.requests.slice(before);
        // The retry renders the prompt of the snapshot the failed run was enqueued with.
        expect(requests.every((r) => prompt(r.body).startsWith('Write for '))).toBe(true);
        const reused = kept.filter((i) => !changed.includes(i));
        expect(requests.map((r) => rowOf(r.body)).sort((a, b) => a - b)).toEqual(Array.from({ length: TOTAL }, (_, i) => i).filter((i) => !reused.includes(i)));
        expectOneEachWithOwnLine(domain, TOTAL);

        // A new run takes the changed prompt, and reuses nothing.
        const fresh = await api.run(workflowId);
        expect(fresh.status).toBe('SUCCESS');
        const freshRequests = stub.requests.slice(before + requests.length);
        expect(freshRequests).toHaveLength(TOTAL);
        expect(freshRequests.every((r) => prompt(r.body).startsWith('Write anew for '))).toBe(true);
    });

});
