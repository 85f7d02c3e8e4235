import { setTimeout } from 'node:timers/promises';

import Boom from '@hapi/boom';
import { type Graph, validateGraph } from '@flowctl/engine';

import type { Context } from '../context.js';
import { badRequest, type ProblemDetail } from './errors.js';
import { type IdempotencyClaim, insertKeyed } from './idempotency.js';
import { columnProblems, newColumnProblems } from './graph-columns.js';
import { type ListPage, type ListQuery, pageOut, pageRequest } from './paging.js';
import type { SchedulesService } from './schedules.js';
import { newId } from '../ids.js';
import { refusedTarget } from '../outbound.js';
import { cancelWorkflowRuns, runsHoldingWorkflow } from '../store/runs.js';
import { uploadsStore } from '../store/uploads.js';
import { type WorkflowChanges, type WorkflowRecord, workflowsStore } from '../store/workflows.js';

export type { WorkflowRecord } from '../store/workflows.js';

export interface WorkflowInput {
    name: string;
    /** Checked here: its envelope (arrays, sizes) was checked by the route. */
    graph: unknown;
    webhookUrl?: string | null;
    /** Pauses or resumes the workflow's schedule and hook. */
    paused?: boolean;
}

/** A workflow as create and PATCH answer it: with its hook's URL when one was made by this request. */
export type SavedWorkflow = WorkflowRecord & { hookUrl?: string };

export interface WorkflowsService {
    /** With the request's Idempotency-Key, a workflow made with it before is answered instead (services/idempotency.ts insertKeyed). */
    create(accountId: string, input: WorkflowInput, claim?: IdempotencyClaim | null): Promise<SavedWorkflow>;
    /** Newest first. */
    /** Newest first; `next` is the cursor of the next page. */
    list(accountId: string, query: ListQuery): Promise<ListPage<WorkflowRecord>>;
    /** The stored workflow; 404 when unknown or another account's. For the run worker too. */
    getWorkflow(accountId: string, workflowId: string): Promise<WorkflowRecord>;
    /**
     * A change of name or graph makes the next revision; pausing alone makes none. `ifRevision` (from
     * If-Match): 412 unless it is still the current revision, checked by the statement that writes.
     */
    update(accountId: string, workflowId: string, changes: Partial<WorkflowInput>, ifRevision?: number): Promise<SavedWorkflow>;
    /** Checks a graph as create does (400 with every problem); for a preview of an unsaved edit. */
    check(accountId: string, graph: unknown): Promise<Graph>;
    /**
     * Cancels its PENDING and RUNNING runs, waits up to DELETE_WAIT_MS for a running one to stop, then
     * deletes it with its runs (runs.workflow_id cascades); 409 naming the run that did not stop.
     */
    remove(accountId: string, workflowId: string): Promise<void>;
}

/** How long a delete waits for a running run of the workflow to stop. */
export const DELETE_WAIT_MS = 5_000;
const DELETE_POLL_MS = 50;

const notFound = (workflowId: string): Boom.Boom => Boom.notFound(`Workflow '${workflowId}' not found`);

/** 412, saying which revision is current and how to see what changed; `expected` 0: a tag that is no revision. */
const staleRevision = (workflowId: string, expected: number, current: number): Boom.Boom => {
    const error = Boom.preconditionFailed(
        expected === 0
            ? `Workflow '${workflowId}' is at revision ${current}, and If-Match names none of its revisions: send the ETag of GET /api/workflows/${workflowId} ("r${current}")`
            : `Workflow '${workflowId}' is at revision ${current}, not ${expected} (If-Match: "r${expected}"): it was changed since you read it. See what changed with GET /api/workflows/${workflowId}/revisions, then send your change again with If-Match: "r${current}"`
    );
    Object.assign(error.output.payload, { revision: current });
    return error;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Uploads named by DATA_SOURCE nodes, with the path of each mention. Tolerates malformed nodes. */
const uploadMentions = (graph: unknown): { uploadId: string; path: string }[] => {
    const nodes = isRecord(graph) && Array.isArray(graph.nodes) ? graph.nodes : [];
    return nodes.flatMap((node: unknown, index) =>
        isRecord(node) && node.type === 'DATA_SOURCE' && isRecord(node.data) && typeof node.data.uploadId === 'string' && node.data.uploadId !== ''
            ? [{ uploadId: node.data.uploadId, path: `graph.nodes[${index}].data.uploadId` }]
            : []
    );
};

const SHOWN_IN_MESSAGE = 3;

export const createWorkflowsService = (ctx: Context, schedules: SchedulesService): WorkflowsService => {
    const workflows = workflowsStore(ctx.db);
    const uploads = uploadsStore(ctx.db);

    /**
     * Every problem of the graph at once: the engine's rules, uploads the account does not have, and
     * names no column reaching them has. `previous` (a PATCH's stored graph): its column mistakes are
     * not refused again, only new ones (see newColumnProblems).
     */
    const checkGraph = async (accountId: string, graph: unknown, previous?: unknown): Promise<Graph> => {
        const problems: ProblemDetail[] = [];
        const validation = validateGraph(graph, { minScheduleIntervalSeconds: ctx.config.schedule.minIntervalSeconds });
        if (!validation.ok) {
            for (const problem of validation.problems) {
                problems.push({ path: problem.path ? `graph.${problem.path}` : 'graph', message: problem.message });
            }
        }

        const mentions = uploadMentions(graph);
        const ids = new Set([...mentions, ...(previous === undefined ? [] : uploadMentions(previous))].map((m) => m.uploadId));
        const headers = await uploads.headers(accountId, [...ids]);
        for (const { uploadId, path } of mentions) {
            if (!headers.has(uploadId)) {
                problems.push({ path, message: `upload '${uploadId}' not found: upload the CSV first (POST /api/uploads) and use the uploadId it returns` });
            }
        }

        const columns = previous === undefined ? columnProblems(graph, headers) : newColumnProblems(graph, previous, headers);
        for (const problem of columns) {
            problems.push({ path: `graph.${problem.path}`, message: problem.message });
        }

        // PostgreSQL text and jsonb cannot hold U+0000; refuse it here rather than fail in the store.
        if (JSON.stringify(graph).includes('\\u0000')) {
            problems.push({ path: 'graph', message: 'strings in the graph cannot contain the NUL character (\\u0000)' });
        }

        if (problems.length > 0) {
            const shown = problems.slice(0, SHOWN_IN_MESSAGE).map((p) => `${p.path}: ${p.message}`);
            const more = problems.length > SHOWN_IN_MESSAGE ? `; and ${problems.length - SHOWN_IN_MESSAGE} more in details` : '';
            throw badRequest(`Invalid workflow graph (${problems.length} problem${problems.length > 1 ? 's' : ''}): ${shown.join('; ')}${more}`, problems);
        }

        return graph as Graph;
    };

    const checkWebhookUrl = (url: string | null | undefined): void => {
        const refused = refusedTarget(url, ctx.config.allowPrivateNetwork);
        if (refused) {
            throw badRequest(`Invalid webhookUrl: ${refused}`, [{ path: 'webhookUrl', message: refused }]);
        }
    };

    return {
        async create(accountId, input, claim = null) {
            checkWebhookUrl(input.webhookUrl);
            const graph = await checkGraph(accountId, input.graph);
            const record = { id: newId('wf'), accountId, name: input.name, graph, webhookUrl: input.webhookUrl ?? null };
            const made = await insertKeyed(ctx.db, 'workflows', accountId, claim, () => workflows.insert(record, claim));
            // Made now, or by an earlier request with the key whose answer was lost: that one's schedule
            // and hook may not have been set, and the hook URL it made (if it did) was never seen.
            const workflow = made && ('inserted' in made ? made.inserted : await workflows.find(accountId, made.earlier.id));
            if (!workflow) {
                throw Boom.conflict(`The workflow made with Idempotency-Key '${claim?.key}' was deleted while this request looked it up: send the request again`);
            }

            const { hookUrl } = await schedules.sync(workflow.id, workflow.graph, { newHook: workflow.id !== record.id });
            return hookUrl ? { ...workflow, hookUrl } : workflow;
        },
        check: (accountId, graph) => checkGraph(accountId, graph),
        async list(accountId, query) {
            return pageOut(await workflows.list(accountId, pageRequest(query)));
        },
        async getWorkflow(accountId, workflowId) {
            const workflow = await workflows.find(accountId, workflowId);
            if (!workflow) {
                throw notFound(workflowId);
            }

            return workflow;
        },
        async update(accountId, workflowId, input, ifRevision) {
            const changes: WorkflowChanges = {};
            if (input.name !== undefined) {
                changes.name = input.name;
            }

            if (input.graph !== undefined) {
                const stored = await workflows.find(accountId, workflowId);
                if (!stored) {
                    throw notFound(workflowId);
                }

                changes.graph = await checkGraph(accountId, input.graph, stored.graph);
            }

            if (input.webhookUrl !== undefined) {
                checkWebhookUrl(input.webhookUrl);
                changes.webhookUrl = input.webhookUrl;
            }

            // Only pausing changes nothing of the workflow itself: its revision is only checked.
            const workflow =
                Object.keys(changes).length > 0
                    ? await workflows.update(accountId, workflowId, changes, ifRevision)
                    : await workflows.find(accountId, workflowId).then((found) => (found && (ifRevision === undefined || found.revision === ifRevision) ? found : null));
            if (!workflow) {
                const current = ifRevision === undefined ? null : await workflows.find(accountId, workflowId);
                if (!current) {
                    throw notFound(workflowId);
                }

                throw staleRevision(workflowId, ifRevision as number, current.revision);
            }

            const { hookUrl } = changes.graph ? await schedules.sync(workflowId, changes.graph) : { hookUrl: null };
            if (input.paused !== undefined) {
                await schedules.pause(accountId, workflowId, input.paused);
            }

            return hookUrl ? { ...workflow, hookUrl } : workflow;
        },
        async remove(accountId, workflowId) {
            if (!(await workflows.find(accountId, workflowId))) {
                throw notFound(workflowId);
            }

            // A run deleted under its worker's feet leaves the worker writing to rows that are gone.
            for (const runId of await cancelWorkflowRuns(ctx.db, accountId, workflowId)) {
                ctx.queue.local.get(runId)?.('cancel');
            }

            const deadline = Date.now() + DELETE_WAIT_MS;
            let holding = await runsHoldingWorkflow(ctx.db, workflowId);
            while (holding.length > 0 && Date.now() < deadline) {
                await setTimeout(DELETE_POLL_MS);
                holding = await runsHoldingWorkflow(ctx.db, workflowId);
            }

            if (holding.length > 0) {
                throw Boom.conflict(
                    `Workflow '${workflowId}' still has run '${holding[0]}' RUNNING: it was cancelled and stops after the element in progress; delete the workflow again once the run has ended`
                );
            }

            if (!(await workflows.delete(accountId, workflowId))) {
                throw notFound(workflowId);
            }
        }
    };
};
