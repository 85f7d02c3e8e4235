import type { ServerRoute } from '@hapi/hapi';
import { MAX_NODE_ID_LENGTH } from '@flowctl/engine';
import Joi from 'joi';

import { accountIdOf } from '../http/auth.js';
import { idempotencyHeaders, idempotent } from '../http/idempotency.js';
import { firstEntityTag, preferredWait, watchHeaders } from '../http/watch.js';
import { nextLink } from '../http/paging.js';
import type { Services } from '../services/index.js';
import { triggerView } from './schedule-views.js';

export const DEFAULT_RUN_PAGE = 50;
export const MAX_RUN_PAGE = 500;
export const DEFAULT_OUTPUT_PAGE = 100;
export const MAX_OUTPUT_PAGE = 1000;

const runStatus = Joi.string().valid('PENDING', 'RUNNING', 'SUCCESS', 'FAILED', 'CANCELLED');
const timestamp = Joi.string().isoDate();

const enqueued = Joi.object({
    runId: Joi.string().required(),
    status: Joi.string().valid('PENDING').required(),
    workflowId: Joi.string().required(),
    triggeredAt: timestamp.required()
});

const nodeView = Joi.object({
    nodeId: Joi.string().required(),
    type: Joi.string().required(),
    status: Joi.string().valid('PENDING', 'RUNNING', 'SUCCESS', 'FAILED', 'SKIPPED').required(),
    error: Joi.string().allow(null).required(),
    startedAt: timestamp.allow(null).required(),
    completedAt: timestamp.allow(null).required(),
    output: Joi.object()
        .unknown()
        .allow(null)
        .required()
        .description('Bounded summary: each array output as {count, first} (its first 5 elements); other values as they are. While it runs, an OUTPUT node has {emailsSent, emailsTotal} and an AI node {aiDone, aiTotal}: what progress bars need')
});

const revision = Joi.number().integer().min(1).description('The workflow revision the run executes: see …/revisions/{revision} of its workflow');

const runDetail = Joi.object({
    runId: Joi.string().required(),
    workflowId: Joi.string().required(),
    revision: revision.required(),
    status: runStatus.required(),
    createdAt: timestamp.required(),
    enqueuedAt: timestamp.required().description('Same instant as createdAt'),
    triggeredAt: timestamp.required().description('Same instant as createdAt'),
    startedAt: timestamp.description('Present once execution has begun'),
    completedAt: timestamp.description('Present once the run is terminal'),
    cancelRequestedAt: timestamp.description('Present while a RUNNING run is being cancelled'),
    error: Joi.string().allow(null).required().description('Why a FAILED run failed'),
    result: Joi.object({
        totalRows: Joi.number().integer().required(),
        filteredOut: Joi.number().integer().required(),
        emailsSent: Joi.number().integer().required(),
        possiblyDuplicated: Joi.number()
            .integer()
            .description(
                'Present when a worker died between an e-mail being accepted and its record: such e-mails were sent again with the same Message-ID (receivers that deduplicate drop them); this many recipients may have two copies'
            ),
        unknownOutcome: Joi.number()
            .integer()
            .description(
                "Present when some e-mails' outcome is unknown: a copy went out and its answer was never read (a worker died, an answer timed out) and no later copy was accepted, or (in a retry) such e-mails were left out. They may have arrived, so they are counted neither in emailsSent nor as failures, and no retry sends them; each OUTPUT node's output counts its own as unknownOutcome"
            ),
        suppressed: Joi.number()
            .integer()
            .description("Present when some elements were left out because their address is on the account's suppression list (GET /api/suppressions): neither sent nor failures; each OUTPUT node's output counts its own as suppressed"),
        aiCalls: Joi.number().integer().description('Present once an AI node ran: language-model calls made for the run (a reply asked again counts twice)'),
        aiPromptTokens: Joi.number().integer().description("Present once an AI node ran: prompt tokens, as the replies' usage reported them"),
        aiCompletionTokens: Joi.number().integer().description("Present once an AI node ran: completion tokens, as the replies' usage reported them")
    })
        .required()
        .description('Final once the run is terminal; while it runs, rows loaded and e-mails sent so far'),
    nodes: Joi.array().items(nodeView).required().description('In graph order'),
    retryOf: Joi.string().description('For a retry run: the run it retries (POST …/runs/{runId}/retry)'),
    trigger: triggerView.required()
});

const runEntry = Joi.object({
    runId: Joi.string().required(),
    workflowId: Joi.string().required(),
    revision: revision.required(),
    status: runStatus.required(),
    createdAt: timestamp.required(),
    trigger: triggerView.required()
});

const outputPage = Joi.object({
    runId: Joi.string().required(),
    nodeId: Joi.string().required(),
    status: Joi.string().required(),
    offset: Joi.number().integer().required(),
    limit: Joi.number().integer().required(),
    total: Joi.number().integer().required().description('Length of the longest array output'),
    output: Joi.object().unknown().allow(null).required().description('Every output key; arrays cut to [offset, offset + limit)')
});

const id = Joi.string().max(200);
const runParams = Joi.object({ runId: id.required() });
const workflowParams = Joi.object({ workflowId: id.required() });

export const runRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'POST',
        path: '/api/workflows/{workflowId}/run',
        options: {
            tags: ['api', 'runs'],
            description: 'Enqueue a run',
            notes: 'Answers 202 at once: the run waits PENDING until no other run of the workflow executes, in enqueue order. It keeps the graph as it is now. Send an Idempotency-Key to retry safely: a repeat gets the first answer and enqueues nothing (422 if the key was used for another request; 409 while the first is still being answered).',
            // No body is expected; one sent anyway is not parsed.
            payload: { parse: false, output: 'data', maxBytes: 64 * 1024 },
            validate: { params: workflowParams, headers: idempotencyHeaders },
            response: { status: { 202: enqueued } },
            // The run's INSERT filters by account (404 for another's id, as for an unknown one): only a
            // request with an Idempotency-Key, judged first, has its owner checked before.
            plugins: {
                owner: { kind: 'workflow', param: 'workflowId', judged: (request) => request.headers['idempotency-key'] !== undefined },
                openapi: { status: 202, errors: [409, 422] }
            }
        },
        handler: idempotent(services.idempotency, async (request, h, claim) => {
            const run = await services.runs.enqueue(accountIdOf(request), (request.params as { workflowId: string }).workflowId, claim);
            return h.response(run).code(202);
        })
    },
    {
        method: 'GET',
        path: '/api/workflows/{workflowId}/runs',
        options: {
            tags: ['api', 'runs'],
            description: 'List the runs of a workflow',
            notes: `Most recent first (order=asc for oldest first), ${DEFAULT_RUN_PAGE} per page by default, at most ${MAX_RUN_PAGE}. The next page's address is in the Link header (rel="next").`,
            validate: {
                params: workflowParams,
                query: Joi.object({
                    order: Joi.string().valid('asc', 'desc').default('desc'),
                    limit: Joi.number().integer().min(1).max(MAX_RUN_PAGE).default(DEFAULT_RUN_PAGE),
                    cursor: Joi.string().max(40).description('From the Link header of the previous page')
                })
            },
            response: { status: { 200: Joi.array().items(runEntry) } }
        },
        handler: async (request, h) => {
            const { workflowId } = request.params as { workflowId: string };
            const query = request.query as { order: 'asc' | 'desc'; limit: number; cursor?: string };
            const page = await services.runs.list(accountIdOf(request), workflowId, query);
            const response = h.response(page.runs);
            if (page.next) {
                response.header('link', nextLink(`/api/workflows/${encodeURIComponent(workflowId)}/runs`, { order: query.order, limit: query.limit, cursor: page.next }));
            }

            return response;
        }
    },
    {
        method: 'GET',
        path: '/api/workflows/runs/{runId}',
        options: {
            tags: ['api', 'runs'],
            description: 'A run with its nodes',
            notes: [
                'Poll from 1–2 s after enqueueing, backing off from 2 s to 30 s. Node outputs are summaries; page through one with …/nodes/{nodeId}/output.',
                'Cheaper watching: every answer has a strong ETag; send it back as If-None-Match to get 304 Not Modified while nothing changed. Add `Prefer: wait=N` (N ≤ 30) and the request is held until the run or one of its nodes changes or N seconds pass (answered with `Preference-Applied: wait=N`); a finished run is answered at once.'
            ],
            validate: { params: runParams, headers: watchHeaders },
            response: { status: { 200: runDetail } }
        },
        handler: async (request, h) => {
            const headers = request.headers as { prefer?: string; 'if-none-match'?: string };
            const wait = preferredWait(headers.prefer);
            const stop = new AbortController();
            request.events.once('disconnect', () => stop.abort());
            const { run, version } = await services.runs.watch(accountIdOf(request), (request.params as { runId: string }).runId, {
                known: firstEntityTag(headers['if-none-match']),
                waitMs: (wait ?? 0) * 1000,
                signal: stop.signal
            });

            // hapi answers 304 itself when If-None-Match names this tag. One tag whatever the encoding.
            const response = h.response(run).etag(version, { weak: false, vary: false });
            return wait === null ? response : response.header('preference-applied', `wait=${wait}`);
        }
    },
    {
        method: 'GET',
        path: '/api/workflows/runs/{runId}/nodes/{nodeId}/output',
        options: {
            tags: ['api', 'runs'],
            description: "Page through one node's whole output",
            notes: "A DATA_SOURCE's rows and a FILTER's items are read again from the run's upload for each page (a Drive file as it is now): two such pages at a time per server and one per account (429 with Retry-After while another of the account's is read or waits): a page past those waits its turn, accounts taking turns (503 with Retry-After only when 100 accounts wait). A page within the first elements the run detail holds is answered from them. Other outputs are kept whole when small; of a larger one only the elements the run detail shows are kept, and a page past them answers 409.",
            validate: {
                params: Joi.object({ runId: id.required(), nodeId: Joi.string().max(MAX_NODE_ID_LENGTH).required() }),
                query: Joi.object({
                    offset: Joi.number().integer().min(0).max(1e9).default(0),
                    limit: Joi.number().integer().min(1).max(MAX_OUTPUT_PAGE).default(DEFAULT_OUTPUT_PAGE)
                })
            },
            response: { status: { 200: outputPage } },
            plugins: { openapi: { errors: [409] } }
        },
        handler: async (request, h) => {
            const { runId, nodeId } = request.params as { runId: string; nodeId: string };
            const { offset, limit } = request.query as { offset: number; limit: number };
            const stop = new AbortController();
            request.events.once('disconnect', () => stop.abort());
            const page = await services.runs.nodeOutput(accountIdOf(request), runId, nodeId, { offset, limit, signal: stop.signal });
            const response = h.response(page);
            if (offset + limit < page.total) {
                const path = `/api/workflows/runs/${encodeURIComponent(runId)}/nodes/${encodeURIComponent(nodeId)}/output`;
                response.header('link', nextLink(path, { offset: offset + limit, limit }));
            }

            return response;
        }
    },
    {
        method: 'POST',
        path: '/api/workflows/runs/{runId}/cancel',
        options: {
            tags: ['api', 'runs'],
            description: 'Cancel a run',
            notes: 'A PENDING run is CANCELLED at once (200). A RUNNING run stops at its next element boundary, its remaining nodes SKIPPED, and ends CANCELLED (202: poll it). A finished run answers 409.',
            payload: { parse: false, output: 'data', maxBytes: 64 * 1024 },
            validate: { params: runParams },
            response: { status: { 200: runDetail, 202: runDetail } },
            plugins: { owner: { kind: 'run', param: 'runId' }, openapi: { status: 200, errors: [409] } }
        },
        handler: async (request, h) => {
            const { run, stopping } = await services.runs.cancel(accountIdOf(request), (request.params as { runId: string }).runId);
            return h.response(run).code(stopping ? 202 : 200);
        }
    },
    {
        method: 'POST',
        path: '/api/workflows/runs/{runId}/retry',
        options: {
            tags: ['api', 'runs'],
            description: 'Retry a finished run',
            notes: [
                'Enqueues a new run (202, like an enqueue) whose retryOf names the given run. It executes the given run\'s revision, not the workflow as it is now (a prompt changed since applies to new runs only), unless the body is {"revision": "latest"}: then the current revision.',
                'A run that ended FAILED or CANCELLED before each of its nodes other than OUTPUT succeeded (an AI node answered 401, refused past AI_RETRY_BUDGET_MS, a reply invalid twice, a cancel mid-node; a DATA_SOURCE that failed), or that was given up after repeated interruptions: the retry executes the graph again. Outputs the run kept are reused; an AI node asks the model only for elements without a reply recorded for that run under the same node, element index and hash of the rendered request (model, system, prompt, schema: a changed row is asked again), and those reused replies count no aiCalls; OUTPUT nodes send each row that no run of its chain of retries sent or may have sent, refused ones included.',
                'Any other finished run (it failed or was cancelled at its OUTPUT nodes): the retry sends again, exactly as they were rendered, the e-mails the mail server refused in it and that no retry has delivered since; nothing else is executed. Rows with an invalid address are not retried.',
                "Either way a row whose outcome is unknown is not sent: left under way by a worker that died, or sent again after such a copy (counted in possiblyDuplicated), even if the server refused the later copy, since the first may have arrived and the retry's own Message-ID would not let a receiver drop it. Each OUTPUT node's output counts such rows as unknownOutcome.",
                'So nobody who got an e-mail gets it twice. 409 when the run has not ended, or is of the second kind with no such e-mail (a run that succeeded, say); its message says how many rows were left out as their outcome is unknown.'
            ],
            payload: { allow: 'application/json', maxBytes: 64 * 1024 },
            validate: {
                params: runParams,
                payload: Joi.object({
                    revision: Joi.string()
                        .valid('latest')
                        .description('"latest": execute the workflow\'s current revision instead of the run\'s')
                        .messages({ 'any.only': 'revision must be "latest" (or leave it out to execute the run\'s own revision)' })
                })
                    .allow(null)
                    .description('Optional')
            },
            response: { status: { 202: enqueued } },
            plugins: { owner: { kind: 'run', param: 'runId' }, openapi: { status: 202, errors: [409] } }
        },
        handler: async (request, h) => {
            const body = request.payload as { revision?: 'latest' } | null;
            const run = await services.runs.retry(accountIdOf(request), (request.params as { runId: string }).runId, { latest: body?.revision === 'latest' });
            return h.response(run).code(202);
        }
    },
    {
        method: 'GET',
        path: '/api/workflows/{workflowId}/webhook-secret',
        options: {
            tags: ['api', 'runs'],
            description: "The workflow's webhook signing secret",
            notes: 'Webhook requests carry X-Flowctl-Signature: sha256=<hex HMAC-SHA256 of the raw body with this secret>. Created on first use.',
            validate: { params: workflowParams },
            response: { status: { 200: Joi.object({ workflowId: Joi.string().required(), webhookSecret: Joi.string().required() }) } }
        },
        handler: async (request) => {
            const { workflowId } = request.params as { workflowId: string };
            return { workflowId, webhookSecret: await services.runs.webhookSecret(accountIdOf(request), workflowId, false) };
        }
    },
    {
        method: 'POST',
        path: '/api/workflows/{workflowId}/webhook-secret',
        options: {
            plugins: { owner: { kind: 'workflow', param: 'workflowId' } },
            tags: ['api', 'runs'],
            description: "Replace the workflow's webhook signing secret",
            notes: 'Deliveries still queued are signed with the new secret.',
            payload: { parse: false, output: 'data', maxBytes: 64 * 1024 },
            validate: { params: workflowParams },
            response: { status: { 200: Joi.object({ workflowId: Joi.string().required(), webhookSecret: Joi.string().required() }) } }
        },
        handler: async (request) => {
            const { workflowId } = request.params as { workflowId: string };
            return { workflowId, webhookSecret: await services.runs.webhookSecret(accountIdOf(request), workflowId, true) };
        }
    }
];
