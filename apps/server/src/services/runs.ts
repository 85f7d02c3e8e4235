import Crypto from 'node:crypto';

import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { newId } from '../ids.js';
import { encrypt } from '../secrets.js';
import { retryableDeliveries, unknownDeliveries } from '../store/deliveries.js';
import { retrySource } from '../store/interruptions.js';
import { DRAIN_JOB, WEBHOOK_JOB } from '../store/queue.js';
import * as Store from '../store/runs.js';
import { replaceWebhookSecret } from '../store/webhooks.js';
import { type IdempotencyClaim, insertKeyed } from './idempotency.js';
import { createNodeOutputReader, type NodeOutputPage, type RowSources } from './node-output.js';
import { newWebhookSecret, webhookSecret } from './webhooks.js';

export type { NodeOutputPage } from './node-output.js';

export type RunStatus = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAILED' | 'CANCELLED';
const TERMINAL = new Set(['SUCCESS', 'FAILED', 'CANCELLED']);

/** A run's figures as the API shows them (see RunRow's `result`). */
export type RunResultView = NonNullable<Store.RunRow['result']>;

export interface NodeView {
    nodeId: string;
    type: string;
    status: string;
    error: string | null;
    startedAt: string | null;
    completedAt: string | null;
    /** Bounded: arrays as `{count, first}`; the whole output is paged separately. */
    output: Record<string, unknown> | null;
}

export interface RunDetail {
    runId: string;
    workflowId: string;
    /** The workflow revision the run executes. */
    revision: number;
    status: RunStatus;
    createdAt: string;
    enqueuedAt: string;
    triggeredAt: string;
    startedAt?: string;
    completedAt?: string;
    cancelRequestedAt?: string;
    error: string | null;
    result: RunResultView;
    nodes: NodeView[];
    /** For a retry run: the run whose failed e-mails it sends again. */
    retryOf?: string;
    trigger: RunTrigger;
}

/** What started a run; a scheduled run also names its tick. */
export interface RunTrigger {
    type: 'manual' | 'schedule' | 'webhook' | 'retry';
    scheduledFor?: string;
}

/** A retry is told by the run it retries; the others by the kind the run was inserted with. */
const triggerOf = (row: { retry_of: string | null; trigger_type: string | null; scheduled_for: Date | null }): RunTrigger =>
    row.retry_of
        ? { type: 'retry' }
        : { type: (row.trigger_type ?? 'manual') as RunTrigger['type'], ...(row.scheduled_for ? { scheduledFor: new Date(row.scheduled_for).toISOString() } : {}) };

export interface EnqueuedRun {
    runId: string;
    status: 'PENDING';
    workflowId: string;
    triggeredAt: string;
}

export interface RunListEntry {
    runId: string;
    workflowId: string;
    revision: number;
    status: RunStatus;
    createdAt: string;
    trigger: RunTrigger;
}

export interface RunPage {
    runs: RunListEntry[];
    /** Cursor of the next page, or null on the last one. */
    next: string | null;
}

export interface VersionedRun {
    run: RunDetail;
    /** Changes whenever anything in `run` does: a strong ETag. */
    version: string;
}

export interface WatchOptions {
    /** The version the caller has; null: answer at once. */
    known: string | null;
    /** How long to wait for the run to differ from `known`. */
    waitMs: number;
    signal?: AbortSignal;
}

export interface RunsService {
    /** With the request's Idempotency-Key, a run enqueued with it before is answered instead (services/idempotency.ts insertKeyed). */
    enqueue(accountId: string, workflowId: string, claim?: IdempotencyClaim | null): Promise<EnqueuedRun>;
    get(accountId: string, runId: string): Promise<RunDetail>;
    /**
     * The run as it is now, or as soon as it differs from `known` (a run or node change made by any
     * process), or as it is after `waitMs`. A finished run is answered at once: it will not change.
     */
    watch(accountId: string, runId: string, options: WatchOptions): Promise<VersionedRun>;
    list(accountId: string, workflowId: string, query: { order: 'asc' | 'desc'; limit: number; cursor?: string }): Promise<RunPage>;
    /** `signal`: the asker left; a page waiting for its turn, or being read again, is given up. */
    nodeOutput(accountId: string, runId: string, nodeId: string, page: { offset: number; limit: number; signal?: AbortSignal }): Promise<NodeOutputPage>;
    /** `stopping` is true when the run was RUNNING: the worker stops it at the next element boundary. */
    cancel(accountId: string, runId: string): Promise<{ run: RunDetail; stopping: boolean }>;
    /**
     * Enqueues a retry of a finished run: one that executes its graph snapshot again, reusing its
     * recorded model replies and sending only what no run of its chain sent, when it stopped before
     * its computing nodes all succeeded (or was given up); otherwise one that sends again, as
     * rendered then, the e-mails the mail server refused. It executes the run's revision, or with
     * `latest` the workflow's current one.
     */
    retry(accountId: string, runId: string, options?: { latest?: boolean }): Promise<EnqueuedRun>;
    webhookSecret(accountId: string, workflowId: string, rotate: boolean): Promise<string>;
}

const runNotFound = (runId: string) => Boom.notFound(`Run '${runId}' not found`);
const workflowNotFound = (workflowId: string) => Boom.notFound(`Workflow '${workflowId}' not found`);

/** Rows a retry leaves out as they may have arrived: said, or the user would wonder where they went. */
const unknownNote = (byNode: Map<string, number>): string => {
    const count = [...byNode.values()].reduce((sum, n) => sum + n, 0);
    return count === 0 ? '' : `: ${count} ${count === 1 ? 'e-mail whose outcome is unknown is' : 'e-mails whose outcome is unknown are'} not sent again, as a copy may have arrived`;
};

const iso = (value: Date | string | null | undefined): string | null => (value ? new Date(value).toISOString() : null);

/** Cursors are opaque to clients: the sequence number of the last run of the page. */
const encodeCursor = (seq: number): string => `r${seq.toString(36)}`;
const decodeCursor = (cursor: string): number => {
    const seq = /^r[0-9a-z]{1,11}$/.test(cursor) ? Number.parseInt(cursor.slice(1), 36) : Number.NaN;
    if (!Number.isSafeInteger(seq)) {
        throw Boom.badRequest(`Invalid cursor '${cursor.slice(0, 40)}': pass the cursor from the Link header of the previous page`);
    }

    return seq;
};

const count = (summary: unknown, key: string): number => {
    const value = (summary as Record<string, unknown> | null)?.[key];
    if (typeof value === 'number') {
        return value;
    }

    return typeof (value as { count?: unknown })?.count === 'number' ? (value as { count: number }).count : 0;
};

export const toRunDetail = (row: Store.RunRow): RunDetail => {
    const terminal = TERMINAL.has(row.status);
    const states = new Map((row.nodes ?? []).map((node) => [node.node_id, node]));
    const graphNodes = Array.isArray(row.graph?.nodes) ? row.graph.nodes : [];
    const nodes: NodeView[] = graphNodes.map((node) => {
        const state = states.get(node.id);
        return {
            nodeId: node.id,
            type: node.type,
            // A run that ended before reaching a node (cancelled while PENDING, for one) skipped it.
            status: state?.status ?? (terminal ? 'SKIPPED' : 'PENDING'),
            error: state?.error ?? null,
            startedAt: iso(state?.started_at),
            completedAt: iso(state?.completed_at),
            output: (state?.summary as Record<string, unknown> | null | undefined) ?? null
        };
    });

    // Until the run ends, the figures so far: rows loaded and e-mails sent (filteredOut comes at the end).
    const result = row.result ?? {
        totalRows: nodes.filter((n) => n.type === 'DATA_SOURCE').reduce((sum, n) => sum + count(n.output, 'rows'), 0),
        filteredOut: 0,
        emailsSent: nodes.filter((n) => n.type === 'OUTPUT').reduce((sum, n) => sum + count(n.output, 'emailsSent'), 0)
    };

    const createdAt = row.created_at.toISOString();
    return {
        runId: row.id,
        workflowId: row.workflow_id,
        revision: row.revision,
        status: row.status as RunStatus,
        createdAt,
        enqueuedAt: createdAt,
        triggeredAt: createdAt,
        ...(row.started_at ? { startedAt: row.started_at.toISOString() } : {}),
        ...(row.completed_at ? { completedAt: row.completed_at.toISOString() } : {}),
        ...(row.cancel_requested_at && !terminal ? { cancelRequestedAt: row.cancel_requested_at.toISOString() } : {}),
        error: row.error,
        result,
        nodes,
        ...(row.retry_of ? { retryOf: row.retry_of } : {}),
        trigger: triggerOf(row)
    };
};

export const createRunsService = (ctx: Context, sources: RowSources): RunsService => {
    const { db } = ctx;
    const readNodeOutput = createNodeOutputReader(db, sources);

    const get = async (accountId: string, runId: string): Promise<RunDetail> => {
        const row = await Store.getRun(db, accountId, runId);
        if (!row) {
            throw runNotFound(runId);
        }

        return toRunDetail(row);
    };

    const versioned = async (accountId: string, runId: string): Promise<VersionedRun> => {
        const run = await get(accountId, runId);
        return { run, version: Crypto.createHash('sha256').update(JSON.stringify(run)).digest('base64url').slice(0, 27) };
    };

    return {
        async enqueue(accountId, workflowId, claim = null) {
            const runId = newId('run');
            const enqueued = await insertKeyed(db, 'runs', accountId, claim, () => Store.enqueueRun(db, runId, accountId, workflowId, ctx.config.databaseUrl !== null, claim));
            if (!enqueued) {
                throw workflowNotFound(workflowId);
            }

            if ('earlier' in enqueued) {
                const { earlier } = enqueued;
                return { runId: earlier.id, status: 'PENDING', workflowId, triggeredAt: earlier.created_at.toISOString() };
            }

            const row = enqueued.inserted;
            if (row.job_id && !row.announced) {
                ctx.queue.announce(row.job_id, DRAIN_JOB);
            }

            if (row.held) {
                ctx.queue.wakes.wake(workflowId);
            }

            return { runId, status: 'PENDING', workflowId, triggeredAt: row.created_at.toISOString() };
        },

        get,

        async watch(accountId, runId, { known, waitMs, signal }) {
            if (known === null || waitMs <= 0) {
                return versioned(accountId, runId);
            }

            const deadline = Date.now() + waitMs;
            let changed = false;
            let wake = () => {};
            const onChange = () => {
                changed = true;
                wake();
            };
            for (;;) {
                changed = false;
                // Listening before reading, so a change made in between is not missed; again on each
                // pass, so a lost listening connection is replaced. Null once the server stops.
                const unsubscribe = await ctx.runChanges.subscribe(runId, onChange);
                try {
                    const current = await versioned(accountId, runId);
                    const left = deadline - Date.now();
                    if (!unsubscribe || current.version !== known || TERMINAL.has(current.run.status) || left <= 0 || signal?.aborted) {
                        return current;
                    }

                    if (!changed) {
                        await new Promise<void>((resolve) => {
                            const timer = setTimeout(done, left);
                            signal?.addEventListener('abort', done, { once: true });
                            wake = done;
                            function done() {
                                clearTimeout(timer);
                                signal?.removeEventListener('abort', done);
                                resolve();
                            }
                        });
                    }
                } finally {
                    unsubscribe?.();
                }
            }
        },

        async list(accountId, workflowId, query) {
            const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
            const rows = await Store.listRuns(db, accountId, workflowId, { order: query.order, limit: query.limit + 1, after });
            if (rows.length === 0) {
                throw workflowNotFound(workflowId);
            }

            const runs = rows.filter((row) => row.id !== null);
            const more = runs.length > query.limit;
            const page = runs.slice(0, query.limit);
            return {
                runs: page.map((row) => ({
                    runId: row.id as string,
                    workflowId: row.workflow_id,
                    revision: row.revision as number,
                    status: row.status as RunStatus,
                    createdAt: (row.created_at as Date).toISOString(),
                    trigger: triggerOf(row)
                })),
                next: more ? encodeCursor(page[page.length - 1]?.seq as number) : null
            };
        },

        nodeOutput(accountId, runId, nodeId, page) {
            return readNodeOutput(accountId, runId, nodeId, page.offset, page.limit, page.signal);
        },

        async cancel(accountId, runId) {
            const cancelled = await Store.cancelRun(db, accountId, runId);
            if (cancelled === null) {
                throw runNotFound(runId);
            }

            const { previous } = cancelled;
            if (cancelled.webhook_job_id) {
                ctx.queue.announce(cancelled.webhook_job_id, WEBHOOK_JOB);
            }

            if (TERMINAL.has(previous)) {
                throw Boom.conflict(`Run '${runId}' already ended ${previous}: only PENDING and RUNNING runs can be cancelled`);
            }

            // In this process the run stops at once; elsewhere its worker sees the request at its next heartbeat.
            if (previous === 'RUNNING') {
                ctx.queue.local.get(runId)?.('cancel');
            }

            return { run: await get(accountId, runId), stopping: previous === 'RUNNING' };
        },

        async retry(accountId, runId, options = {}) {
            const source = await Store.getRun(db, accountId, runId);
            if (!source) {
                throw runNotFound(runId);
            }

            if (!TERMINAL.has(source.status)) {
                throw Boom.conflict(`Run '${runId}' is ${source.status}: wait until it ends, then retry its failed e-mails`);
            }

            // A run given up, or one that stopped before its nodes other than OUTPUT all succeeded (an AI
            // node failed, say), is executed again by its retry: it may have rows never reached.
            const rederive = (await retrySource(db, runId))?.rederive === true;
            if (!rederive && (await retryableDeliveries(db, runId, null, 1)).length === 0) {
                throw Boom.conflict(`Run '${runId}' has no failed e-mails left to retry${unknownNote(await unknownDeliveries(db, runId, null))} (invalid addresses are not retried: fix the data and run the workflow again)`);
            }

            const retryId = newId('run');
            const row = await Store.enqueueRetryRun(db, retryId, accountId, runId, rederive, options.latest === true);
            if (!row) {
                throw runNotFound(runId);
            }

            if (row.job_id) {
                ctx.queue.announce(row.job_id, DRAIN_JOB);
            }

            if (row.held) {
                ctx.queue.wakes.wake(row.workflow_id);
            }

            return { runId: retryId, status: 'PENDING', workflowId: row.workflow_id, triggeredAt: row.created_at.toISOString() };
        },

        async webhookSecret(accountId, workflowId, rotate) {
            const key = ctx.secrets.encryptionKey;
            if (rotate && !(await replaceWebhookSecret(db, workflowId, accountId, encrypt(key, newWebhookSecret())))) {
                throw workflowNotFound(workflowId);
            }

            const secret = await webhookSecret(db, key, workflowId, accountId);
            if (secret === null) {
                throw workflowNotFound(workflowId);
            }

            return secret;
        }
    };
};
