import type { Flowctl, RequestOptions } from '../client.js';
import type { PagedList } from '../pagination.js';
import type { NodeOutputPage, Run, RunEnqueued, RunSummary } from '../types.js';
import { type Poll, type WaitOptions, waitForRun } from '../wait.js';
import { type IdempotentRequestOptions, idempotencyHeaders } from './workflows.js';

export interface RunListOptions extends RequestOptions {
    /** `desc` (default): most recent first. */
    order?: 'asc' | 'desc';
    /** Runs per page (server default 50, at most 500). */
    limit?: number;
}

export interface RunRetryOptions extends IdempotentRequestOptions {
    /** `latest`: execute the workflow as it is now, not the revision the run executed. */
    revision?: 'latest';
}

export interface NodeOutputOptions extends RequestOptions {
    offset?: number;
    limit?: number;
}

const runPath = (runId: string) => `/api/workflows/runs/${encodeURIComponent(runId)}`;

// How long past the server's hold a long-poll may take before it counts as a timeout.
const HOLD_GRACE_MS = 15_000;

/** Runs: `client.runs`. */
export class Runs {
    readonly #client: Flowctl;

    constructor(client: Flowctl) {
        this.#client = client;
    }

    /**
     * Enqueues a run of a workflow (it starts when no other run of the workflow executes). Safe to
     * retry: it carries an Idempotency-Key, so a repeat never starts a second run.
     */
    async enqueue(workflowId: string, options?: IdempotentRequestOptions): Promise<RunEnqueued> {
        const res = await this.#client.request({
            ...options,
            method: 'POST',
            path: `/api/workflows/${encodeURIComponent(workflowId)}/run`,
            headers: idempotencyHeaders(options)
        });
        return res.body as RunEnqueued;
    }

    /** A run with its nodes (each node's output as a bounded summary; see `nodeOutput()`). */
    async retrieve(runId: string, options?: RequestOptions): Promise<Run> {
        return (await this.#client.request({ ...options, method: 'GET', path: runPath(runId) })).body as Run;
    }

    /** The runs of a workflow, most recent first unless `order: 'asc'`. */
    list(workflowId: string, options: RunListOptions = {}): PagedList<RunSummary> {
        const { order, limit, ...rest } = options;
        return this.#client.list<RunSummary>({ ...rest, method: 'GET', path: `/api/workflows/${encodeURIComponent(workflowId)}/runs`, query: { order, limit } });
    }

    /**
     * Cancels a run: a PENDING one at once; a RUNNING one stops at its next element boundary (the answer
     * is then still RUNNING: `wait()` for the end). A finished run throws ConflictError.
     */
    async cancel(runId: string, options?: RequestOptions): Promise<Run> {
        return (await this.#client.request({ ...options, method: 'POST', path: `${runPath(runId)}/cancel` })).body as Run;
    }

    /** One page of a node's whole output: arrays cut to `[offset, offset + limit)`. */
    async nodeOutput(runId: string, nodeId: string, options: NodeOutputOptions = {}): Promise<NodeOutputPage> {
        const { offset, limit, ...rest } = options;
        const res = await this.#client.request({ ...rest, method: 'GET', path: `${runPath(runId)}/nodes/${encodeURIComponent(nodeId)}/output`, query: { offset, limit } });
        return res.body as NodeOutputPage;
    }

    /**
     * Starts a new run that sends only what failed in the given run (e.g. e-mails refused by the relay).
     * It executes the given run's revision; `revision: 'latest'` the workflow's current one.
     * Safe to retry: it carries an Idempotency-Key.
     */
    async retry(runId: string, options: RunRetryOptions = {}): Promise<RunEnqueued> {
        const { revision, ...rest } = options;
        const res = await this.#client.request({
            ...rest,
            method: 'POST',
            path: `${runPath(runId)}/retry`,
            headers: idempotencyHeaders(rest),
            ...(revision ? { json: { revision } } : {})
        });
        return res.body as RunEnqueued;
    }

    /**
     * Waits until the run is SUCCESS, FAILED or CANCELLED and resolves with it (a FAILED run is an answer,
     * not an error). First look after 1–2 s, then every 2 s doubling to 30 s; when the server offers it,
     * long-polls instead (`If-None-Match` + `Prefer: wait`), so changes arrive at once with few requests.
     * `onUpdate` sees every change of run or node status. Throws WaitTimeoutError after `timeoutMs`,
     * AbortError when `signal` fires; the run itself goes on either way.
     */
    wait(runId: string, options: WaitOptions = {}): Promise<Run> {
        const poll: Poll = async ({ etag, holdSeconds, signal }) => {
            const headers: Record<string, string> = {};
            if (etag !== undefined) {
                headers['if-none-match'] = etag;
            }

            if (holdSeconds !== undefined) {
                headers.prefer = `wait=${holdSeconds}`;
            }

            const timeoutMs = holdSeconds === undefined ? undefined : Math.max(this.#client.timeoutMs, holdSeconds * 1000 + HOLD_GRACE_MS);
            const res = await this.#client.request({ method: 'GET', path: runPath(runId), headers, signal, timeoutMs, allowNotModified: true });
            return {
                run: res.status === 304 ? undefined : (res.body as Run),
                etag: res.headers.etag,
                held: /\bwait\b/i.test(res.headers['preference-applied'] ?? '')
            };
        };
        return waitForRun(runId, poll, options);
    }

    /** `enqueue()` then `wait()`: resolves with the finished run. */
    async enqueueAndWait(workflowId: string, options: WaitOptions & IdempotentRequestOptions = {}): Promise<Run> {
        const { onUpdate, timeoutMs, ...request } = options;
        const { runId } = await this.enqueue(workflowId, request);
        return this.wait(runId, { onUpdate, timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    }
}
