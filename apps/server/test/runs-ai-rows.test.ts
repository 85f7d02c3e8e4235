import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { type OpenAiStub, type StubReply, startOpenAiStub } from './openai-stub.js';
import type { Json } from './run-fixtures.js';
import { runsApi } from './run-fixtures.js';

// The per-row AI node against a real OpenAI-protocol server: replies joined to their rows, calls in
// flight within AI_CONCURRENCY, 429 storms slowed down through, cancel, and a worker that dies.

const CONCURRENCY = 4;

const people = (prefix: string, rows: number) =>
    ['name,email', ...Array.from({ length: rows }, (_, i) => `P${i},${prefix}${i}@rows.example.test`)].join('\n');

/** TRIGGER -> people -> writer (one call per row) [-> send, one e-mail per row with its own line]. */
const perRow = (uploadId: string, withOutput = false) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'writer', type: 'AI', data: { forEach: '{{people.rows}}', prompt: 'Write for {{item.name}}', output: [{ name: 'line', type: 'string' }] } },
        ...(withOutput ? [{ id: 'send', type: 'OUTPUT', data: { forEach: '{{writer.items}}', to: '{{item.email}}', subject: 'For {{item.name}}', body: '{{item.line}}' } }] : [])
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'writer' },
        ...(withOutput ? [{ source: 'writer', target: 'send' }] : [])
    ]
});

/** Whom a request is for: the row's name in the rendered prompt. */
const whom = (body: Json): string => /Write for (\S+)/.exec(body.messages.at(-1).content)?.[1] ?? '?';
const lineFor = (body: Json): StubReply => ({ content: JSON.stringify({ line: `line for ${whom(body)}` }) });
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runs: a per-row AI node', () => {
    let stub: OpenAiStub;
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;
    beforeAll(async () => {
        stub = await startOpenAiStub();
        t = await startTestServer({
            // A budget no storm here exhausts, even on a loaded machine (the storm of 429s took more than 3 s so).
            config: { ai: { apiKey: 'sk-rows', baseUrl: stub.baseUrl, model: 'gpt-rows' }, aiConcurrency: CONCURRENCY, aiRetryBudgetMs: 60_000, runLeaseMs: 1_000, allowPrivateNetwork: true }
        });
        api = runsApi(t, await createAccount(t));
    });
    afterAll(async () => {
        await t.close();
        await stub.close();
    });

    it('joins each reply to its row in element order, whatever order replies arrive in, with at most AI_CONCURRENCY calls in flight', async () => {
        const own = await startOpenAiStub();
        try {
            const other = runsApi(t, await createAccount(t));
            expect((await other.call('PUT', '/api/account/settings', { ai: { apiKey: 'sk-own-0123456789', baseUrl: own.baseUrl } })).statusCode).toBe(200);
            // Later rows answer sooner: replies come back out of order.
            own.fallback((body) => ({ ...lineFor(body), after: delay((29 - Number(whom(body).slice(1))) % 7) }));
            const before = t.smtp.messages.length;
            const run = await other.run(await other.workflow(perRow(await other.upload(people('order', 30)), true)));
            expect(run.status).toBe('SUCCESS');
            expect(own.requests).toHaveLength(30);
            expect(own.peak).toBeLessThanOrEqual(CONCURRENCY);
            expect(own.peak).toBeGreaterThan(1);
            const page = await other.call('GET', `/api/workflows/runs/${run.runId}/nodes/writer/output?limit=30`);
            expect(page.statusCode, page.payload).toBe(200);
            expect(page.json.output.line).toEqual(Array.from({ length: 30 }, (_, i) => `line for P${i}`));
            expect(run.result).toMatchObject({ emailsSent: 30, aiCalls: 30, aiPromptTokens: 300, aiCompletionTokens: 300 });
            const mails = (await t.smtp.waitFor(before + 30)).slice(before);
            for (const mail of mails) {
                expect(mail.text.trim()).toBe(`line for ${mail.subject.replace('For ', '')}`);
            }
        } finally {
            await own.close();
        }
    });

    it("keeps to an account's lower ai.concurrency", async () => {
        const own = await startOpenAiStub();
        try {
            const other = runsApi(t, await createAccount(t));
            const put = await other.call('PUT', '/api/account/settings', { ai: { apiKey: 'sk-own-0123456789', baseUrl: own.baseUrl, concurrency: 2 } });
            expect(put.statusCode).toBe(200);
            own.fallback((body) => ({ ...lineFor(body), after: delay(5) }));
            const run = await other.run(await other.workflow(perRow(await other.upload(people('lower', 12)))));
            expect(run.status).toBe('SUCCESS');
            expect(own.requests).toHaveLength(12);
            expect(own.peak).toBeLessThanOrEqual(2);
        } finally {
            await own.close();
        }
    });

    it('slows down through a storm of 429s with Retry-After: the run succeeds, each element answered exactly once', async () => {
        const answered = new Map<string, number>();
        let calls = 0;
        // Two of every three of the first 90 requests are refused.
        stub.fallback((body) => {
            calls++;
            if (calls <= 90 && calls % 3 !== 0) {
                return { status: 429, error: 'Rate limit reached for requests', headers: { 'retry-after-ms': '20' } };
            }

            answered.set(whom(body), (answered.get(whom(body)) ?? 0) + 1);
            return lineFor(body);
        });
        const run = await api.waitFor(await api.enqueue(await api.workflow(perRow(await api.upload(people('storm', 40))))), undefined, 60_000);
        expect(run.status).toBe('SUCCESS');
        expect(calls).toBeGreaterThan(90);
        expect([...answered.values()].every((n) => n === 1)).toBe(true);
        expect(answered.size).toBe(40);
        expect(api.node(run, 'writer').output).toMatchObject({ line: { count: 40, first: ['line for P0', 'line for P1', 'line for P2', 'line for P3', 'line for P4'] } });
        expect(run.result).toMatchObject({ aiCalls: 40 });
    });

    it('fails the node once a call has been refused for longer than AI_RETRY_BUDGET_MS', async () => {
        const refusing = await startOpenAiStub();
        const short = await startTestServer({
            config: { ai: { apiKey: 'sk-rows', baseUrl: refusing.baseUrl, model: 'gpt-rows' }, aiConcurrency: CONCURRENCY, aiRetryBudgetMs: 3_000, allowPrivateNetwork: true }
        });
        try {
            const own = runsApi(short, await createAccount(short));
            refusing.fallback({ status: 429, error: 'Rate limit reached for requests', headers: { 'retry-after': '1' } });
            const run = await own.waitFor(await own.enqueue(await own.workflow(perRow(await own.upload(people('budget', 3))))), undefined, 60_000);
            expect(run.status).toBe('FAILED');
            expect(own.node(run, 'writer').error).toMatch(
                /^the language-model endpoint still answered HTTP 429 after \d+ s of retries \(AI_RETRY_BUDGET_MS\): 429 Rate limit reached for requests$/
            );
        } finally {
            await short.close();
            await refusing.close();
        }
    });

    it('stops at once on 401, with the hint', async () => {
        const before = stub.requests.length;
        stub.fallback({ status: 401, error: 'Incorrect API key provided' });
        const run = await api.run(await api.workflow(perRow(await api.upload(people('denied', 20)))));
        expect(api.node(run, 'writer').error).toBe('the language-model endpoint answered HTTP 401 (check the AI API key): 401 Incorrect API key provided');
        expect(stub.requests.length - before).toBeLessThanOrEqual(CONCURRENCY);
    });

    it('shows replies done / total while it runs; a cancel aborts the calls in flight and starts no more', async () => {
        // Only this run's calls are counted (its rows are named C…): a call of the run before, aborted
        // when that run ended, may still reach the stub on a loaded machine.
        const mine = () => stub.requests.filter((request) => whom(request.body as Json).startsWith('C')).length;
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
            release = resolve;
        });
        // The first two rows are answered; the rest are held.
        stub.fallback((body) => ({ ...lineFor(body), ...(['C0', 'C1'].includes(whom(body)) ? {} : { after: held }) }));
        const runId = await api.enqueue(await api.workflow(perRow(await api.upload(people('cancel', 20).replace(/^P(\d+),/gm, 'C$1,')))));
        const live = await api.waitFor(runId, (run) => api.node(run, 'writer').output?.aiDone === 2);
        expect(api.node(live, 'writer')).toMatchObject({ status: 'RUNNING', output: { aiDone: 2, aiTotal: 20 } });
        while (mine() < 2 + CONCURRENCY) {
            await delay(10);
        }

        expect((await api.call('POST', `/api/workflows/runs/${runId}/cancel`)).statusCode).toBe(202);
        const run = await api.waitFor(runId);
        expect(run.status).toBe('CANCELLED');
        expect(api.node(run, 'writer').error).toBe('run cancelled after 2 of 20 language-model calls');
        expect(api.node(run, 'writer').output).toEqual({ aiCalls: 2, aiPromptTokens: 20, aiCompletionTokens: 20 });
        // The held requests were given up by the worker, not answered.
        await stub.waitForIdle();
        release();
        expect(mine()).toBe(2 + CONCURRENCY);
    });

    it('after its worker dies in the middle of 1,000 rows, the run calls the model only for elements without a recorded reply', async () => {
        const asked = new Map<string, number>();
        let stopped: (() => void) | null = null;
        stub.fallback((body) => {
            asked.set(whom(body), (asked.get(whom(body)) ?? 0) + 1);
            if (asked.size === 500) {
                stopped?.();
            }

            return lineFor(body);
        });
        const workflowId = await api.workflow(perRow(await api.upload(people('takeover', 1000))));
        const half = new Promise<void>((resolve) => {
            stopped = resolve;
        });
        const runId = await api.enqueue(workflowId);
        await half;
        // The worker "dies": its lease is gone and it stops at once, so another takes the run over. (The
        // lease goes first: the drain that takes over at once must not have its fresh lease deleted.)
        const stop = t.app.ctx.queue.local.get(runId);
        await t.app.ctx.db.query('DELETE FROM workflow_leases WHERE workflow_id = $1', [workflowId]);
        stop?.('lease-lost');
        const run = await api.waitFor(runId, undefined, 60_000);
        expect(run.status).toBe('SUCCESS');
        expect(asked.size).toBe(1000);
        const twice = [...asked.values()].filter((n) => n > 1);
        expect(twice.every((n) => n === 2)).toBe(true);
        // Only the calls that were in flight when it died are made again.
        expect(twice.length).toBeLessThanOrEqual(CONCURRENCY);
        const page = await api.call('GET', `/api/workflows/runs/${run.runId}/nodes/writer/output?offset=495&limit=10`);
        expect(page.json.output.line).toEqual(Array.from({ length: 10 }, (_, i) => `line for P${495 + i}`));
    });
});
