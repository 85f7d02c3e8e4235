import { fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { AbortError, type Flowctl, TimeoutError, WaitTimeoutError } from '../src/index.js';
import { clientFor, randomName, type SignedUp, signUp, startTestServer, type TestServer, triggerOnly } from './server.js';

// A server without a worker: runs stay PENDING, so a watch never ends by itself.
describe('runs.wait() on a run that does not move', () => {
    let t: TestServer;
    let account: SignedUp;
    let client: Flowctl;
    let workflowId: string;

    beforeAll(async () => {
        t = await startTestServer({ config: { role: 'api' } });
        account = await signUp(t);
        client = clientFor(t, account);
        workflowId = (await client.workflows.create({ name: randomName('idle'), graph: triggerOnly() })).workflowId;
    });

    afterAll(async () => {
        await client?.close();
        await t?.close();
    });

    afterEach(() => {
        vi.useRealTimers();
    });

    it('polls after 1–2 s, then every 2 s doubling to 30 s (plain polling: the server offers no ETag)', async () => {
        const { runId } = await client.runs.enqueue(workflowId);
        let virtualMs = 0;
        const polls: number[] = [];
        let inflight: Promise<unknown> = Promise.resolve();
        // Answers are read whole before they are handed on, so the client's next step is pure microtasks;
        // ETag and Preference-Applied are removed, as from a server that has neither.
        const watcher = clientFor(t, account, {
            fetch: (url, init) => {
                polls.push(virtualMs);
                const answer = (async () => {
                    const res = await undiciFetch(url, init as Parameters<typeof undiciFetch>[1]);
                    const headers = new Headers(res.headers as unknown as Headers);
                    headers.delete('etag');
                    headers.delete('preference-applied');
                    return new Response(await res.text(), { status: res.status, headers });
                })();
                inflight = answer.catch(() => undefined);
                return answer;
            }
        });

        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const controller = new AbortController();
        const updates: string[] = [];
        const watching = watcher.runs.wait(runId, { signal: controller.signal, onUpdate: (run) => updates.push(run.status) }).catch((err: unknown) => err);
        const step = 100;
        while (virtualMs < 95_000) {
            await inflight;
            // A poll made during this step is noted at its end, the latest its timer can have fired: noted
            // at the start, a timer due exactly at a step's end (a first delay of 1000.x ms, which the
            // timers cut to 1000) was noted 100 ms early.
            virtualMs += step;
            await vi.advanceTimersByTimeAsync(step);
        }

        await inflight;
        controller.abort();
        expect(await watching).toBeInstanceOf(AbortError);
        await watcher.close();

        const gaps = polls.slice(1).map((at, i) => at - polls[i]!);
        expect(polls[0]).toBeGreaterThanOrEqual(1000);
        expect(polls[0]).toBeLessThanOrEqual(2000);
        expect(gaps).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000].slice(0, gaps.length));
        expect(gaps.length).toBeGreaterThanOrEqual(5);
        expect(updates).toEqual(['PENDING']);
    });

    it('long-polls when the server offers it: after the first look, each request names the last ETag and is held', async () => {
        const { runId } = await client.runs.enqueue(workflowId);
        const seen: { ifNoneMatch: string | null; prefer: string | null; status?: number }[] = [];
        const watcher = clientFor(t, account, {
            fetch: async (url, init) => {
                // Noted when sent, not when answered: the last request is held until about the deadline,
                // so on a slow machine the watch's timeout can abort it before any answer.
                const headers = new Headers((init as RequestInit).headers);
                const request: (typeof seen)[number] = { ifNoneMatch: headers.get('if-none-match'), prefer: headers.get('prefer') };
                seen.push(request);
                const res = await undiciFetch(url, init as Parameters<typeof undiciFetch>[1]);
                request.status = res.status;
                return res as unknown as Response;
            }
        });
        const err = await watcher.runs.wait(runId, { timeoutMs: 6000 }).catch((e: unknown) => e);
        await watcher.close();

        expect(err).toBeInstanceOf(WaitTimeoutError);
        // Plain polling would have looked twice (after 1–2 s and 2 s later), without a tag or a wait.
        expect(seen[0]).toMatchObject({ ifNoneMatch: null, prefer: expect.stringMatching(/^wait=\d+$/), status: 200 });
        expect(seen[1]).toMatchObject({ ifNoneMatch: expect.stringMatching(/^"/), prefer: expect.stringMatching(/^wait=\d+$/) });
        expect(seen.length).toBeLessThanOrEqual(3);
    });

    it('an AbortSignal stops the watch with AbortError (the run goes on); a plain request too', async () => {
        const { runId } = await client.runs.enqueue(workflowId);
        const controller = new AbortController();
        const watching = client.runs.wait(runId, { signal: controller.signal, onUpdate: () => controller.abort(new Error('enough')) });
        const err = await watching.catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AbortError);
        expect((err as AbortError).cause).toEqual(new Error('enough'));
        expect((await client.runs.retrieve(runId)).status).toBe('PENDING');

        const aborted = AbortSignal.abort();
        await expect(client.runs.retrieve(runId, { signal: aborted })).rejects.toBeInstanceOf(AbortError);
    });

    it('timeoutMs ends the watch with WaitTimeoutError carrying the last state', async () => {
        const { runId } = await client.runs.enqueue(workflowId);
        // Long enough for the first answer to arrive on a loaded machine (beside another CI, 2.5 s was not):
        // the state it carries is what the error must carry.
        const err = await client.runs.wait(runId, { timeoutMs: 8000 }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(WaitTimeoutError);
        expect((err as WaitTimeoutError).run).toMatchObject({ runId, status: 'PENDING' });
    });

    it('a request without an answer within timeoutMs is a TimeoutError', async () => {
        const slow = clientFor(t, account, { timeoutMs: 50, maxRetries: 0 });
        let release = () => {};
        const stall = new Promise<void>((resolve) => {
            release = resolve;
        });
        t.app.server!.ext('onPreHandler', async (request, h) => {
            if (request.headers['x-stall'] === 'yes') {
                await stall;
            }
            return h.continue;
        });
        try {
            await expect(slow.auth.me({ headers: { 'x-stall': 'yes' } })).rejects.toBeInstanceOf(TimeoutError);
        } finally {
            release();
            await slow.close();
        }
    });
});
