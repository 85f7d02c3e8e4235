import Crypto from 'node:crypto';

import type { Flowctl, RequestOptions } from '../client.js';
import type { PagedList } from '../pagination.js';
import { ifMatchHeader } from './if-match.js';
import { WorkflowRevisions } from './revisions.js';
import type { HookRotated, Preview, PreviewParams, Workflow, WorkflowCreated, WorkflowCreateParams, WorkflowSummary, WorkflowUpdateParams } from '../types.js';

/** Options of a request the server deduplicates. */
export interface IdempotentRequestOptions extends RequestOptions {
    /** Sent as `Idempotency-Key`: the server answers a repeat within 24 h with the first answer. A fresh one by default. */
    idempotencyKey?: string;
}

/** @internal */
export const idempotencyHeaders = (options: IdempotentRequestOptions | undefined) => ({
    ...options?.headers,
    'idempotency-key': options?.idempotencyKey ?? Crypto.randomUUID()
});

export interface WorkflowUpdateOptions extends RequestOptions {
    /**
     * Change only while the workflow is at this revision: a number, or the ETag `"r<n>"` of a
     * retrieve. PreconditionFailedError (412, its `revision` the current one) when it has moved on.
     */
    ifMatch?: number | string;
}

/** Workflows: `client.workflows`. */
export class Workflows {
    readonly #client: Flowctl;
    /** Every name and graph the workflow had: `list`, `get`, `restore`. */
    readonly revisions: WorkflowRevisions;

    constructor(client: Flowctl) {
        this.#client = client;
        this.revisions = new WorkflowRevisions(client);
    }

    /**
     * Creates a workflow. The graph is validated on the server and every problem reported at once
     * (BadRequestError with `details`). Safe to retry: it carries an Idempotency-Key.
     */
    async create(params: WorkflowCreateParams, options?: IdempotentRequestOptions): Promise<WorkflowCreated> {
        const res = await this.#client.request({ ...options, method: 'POST', path: '/api/workflows', json: params, headers: idempotencyHeaders(options) });
        return res.body as WorkflowCreated;
    }

    /** The account's workflows, newest first. */
    list(options?: RequestOptions): PagedList<WorkflowSummary> {
        return this.#client.list<WorkflowSummary>({ ...options, method: 'GET', path: '/api/workflows' });
    }

    /** One workflow. */
    async retrieve(workflowId: string, options?: RequestOptions): Promise<Workflow> {
        return (await this.#client.request({ ...options, method: 'GET', path: `/api/workflows/${encodeURIComponent(workflowId)}` })).body as Workflow;
    }

    /**
     * Changes name, graph or webhook, or pauses (keys left out keep their value); a change of name or
     * graph makes the next revision, `paused` alone none. Runs already enqueued keep their revision. `ifMatch`: see WorkflowUpdateOptions.
     */
    async update(workflowId: string, change: WorkflowUpdateParams, options: WorkflowUpdateOptions = {}): Promise<Workflow> {
        const { ifMatch, ...rest } = options;
        const res = await this.#client.request({
            ...rest,
            method: 'PATCH',
            path: `/api/workflows/${encodeURIComponent(workflowId)}`,
            json: change,
            headers: ifMatchHeader(rest.headers, ifMatch)
        });
        return res.body as Workflow;
    }

    /** Pauses the workflow's schedule (no tick runs) and hook (it answers 409) until `resume()`. */
    async pause(workflowId: string, options?: WorkflowUpdateOptions): Promise<Workflow> {
        return this.update(workflowId, { paused: true }, options);
    }

    /** Resumes the schedule at its next tick (ticks missed while paused do not run) and the hook. */
    async resume(workflowId: string, options?: WorkflowUpdateOptions): Promise<Workflow> {
        return this.update(workflowId, { paused: false }, options);
    }

    /** Replaces the workflow's hook URL and returns the new one; the old one answers 404 at once. */
    async rotateHook(workflowId: string, options?: RequestOptions): Promise<HookRotated> {
        const res = await this.#client.request({ ...options, method: 'POST', path: `/api/workflows/${encodeURIComponent(workflowId)}/hook/rotate` });
        return res.body as HookRotated;
    }

    /**
     * What a run would send now, sending nothing and recording no run: the first `limit` e-mails per
     * OUTPUT node, each node's state and output, and `result.emailsToSend`. `graph` previews an unsaved
     * edit; `sendTestTo: "me"` also mails the shown e-mails to your own address. Not retried: with
     * `sendTestTo` it sends e-mails. One at a time per account (RateLimitError otherwise).
     */
    async preview(workflowId: string, params: PreviewParams = {}, options?: RequestOptions): Promise<Preview> {
        const res = await this.#client.request({ ...options, method: 'POST', path: `/api/workflows/${encodeURIComponent(workflowId)}/preview`, json: params });
        return res.body as Preview;
    }

    /** Deletes a workflow and all its runs. */
    async delete(workflowId: string, options?: RequestOptions): Promise<void> {
        await this.#client.request({ ...options, method: 'DELETE', path: `/api/workflows/${encodeURIComponent(workflowId)}` });
    }
}
