import type { ResponseToolkit, ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { accountIdOf } from '../http/auth.js';
import { idempotencyHeaders, idempotent } from '../http/idempotency.js';
import { ifMatchHeaders, ifMatchRevision, workflowTag } from '../http/if-match.js';
import { PAGE_NOTES, pageQuery, pageResponse } from '../http/paging.js';
import { explainPayloadErrors, formatBytes } from '../http/payload.js';
import { withoutCredentials } from '../outbound.js';
import type { Services } from '../services/index.js';
import type { ListQuery } from '../services/paging.js';
import type { TriggerView } from '../services/schedules.js';
import type { SavedWorkflow, WorkflowInput } from '../services/workflows.js';
import { scheduleView } from './schedule-views.js';

export const MAX_NODES = 500;
export const MAX_EDGES = 5000;

const name = Joi.string()
    .trim()
    .min(1)
    .max(200)
    // No C0/C1 control characters, as in fullName and token names: a name is shown on one line (CLI
    // lists, messages), where a line break or an escape sequence would forge or hide text.
    .pattern(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'no control characters')
    .description('Text up to 200 characters on one line, trimmed; no control characters (line breaks, tabs, ESC, BEL, U+0080–U+009F)')
    .messages({
        'string.pattern.name': "'name' must not contain line breaks or other control characters (ESC, BEL, tab, U+0080–U+009F): give the workflow a one-line name of plain text"
    });

// The envelope only: what is inside nodes and edges is checked by the engine's validateGraph(),
// which reports every problem at once with its path.
export const graph = Joi.object({
    nodes: Joi.array()
        .items(Joi.any().description('{id, type, data}: see the node types'))
        .max(MAX_NODES)
        .required()
        .messages({ 'array.max': `a graph may have at most ${MAX_NODES} nodes; this one has {{#value.length}}` }),
    edges: Joi.array()
        .items(Joi.any().description('{source, target}: node ids'))
        .max(MAX_EDGES)
        .required()
        .messages({ 'array.max': `a graph may have at most ${MAX_EDGES} edges; this one has {{#value.length}}` })
}).description('A directed graph: exactly one TRIGGER, every node reachable from it, no cycles');

const webhookUrl = Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .max(2000)
    .allow(null)
    .description('POSTed a signed run summary when a run ends; null removes it');

const graphView = Joi.object({ nodes: Joi.array().required(), edges: Joi.array().required() });
const hookUrl = Joi.string().description("The URL that starts a run (POST rows to it); shown only when made. Keep it secret: it needs no sign-in").optional();
const created = Joi.object({ workflowId: Joi.string().required(), name: Joi.string().required(), createdAt: Joi.string().isoDate().required(), hookUrl });
const revision = Joi.number().integer().min(1).description('Current revision: 1 at creation, one more for each change of name or graph');
const listItem = Joi.object({
    id: Joi.string().required(),
    name: Joi.string().required(),
    graph: graphView.required(),
    revision: revision.required(),
    createdAt: Joi.string().isoDate().required(),
    ...scheduleView
});
export const workflowDetail = listItem.keys({ updatedAt: Joi.string().isoDate().required(), webhookUrl: Joi.string().optional(), hookUrl });
const paused = Joi.boolean().description("Pauses (true) or resumes (false) the workflow's schedule and hook; a resumed schedule starts at its next tick, with no backlog. Alone it makes no revision");

const params = Joi.object({ workflowId: Joi.string().required() });

const payload = {
    allow: 'application/json',
    failAction: explainPayloadErrors({
        tooLarge: (limit) => `The request body is larger than ${formatBytes(limit)}: a workflow must fit in ${formatBytes(limit)} of JSON.`,
        wrongType: (received) => `Send the workflow as JSON with Content-Type: application/json (got ${received}).`
    })
};

const toDetail = (workflow: SavedWorkflow, trigger: TriggerView | undefined) => ({
    id: workflow.id,
    name: workflow.name,
    graph: workflow.graph,
    revision: workflow.revision,
    createdAt: workflow.createdAt.toISOString(),
    updatedAt: workflow.updatedAt.toISOString(),
    // Credentials in the URL are used when posting, never shown back.
    ...(workflow.webhookUrl ? { webhookUrl: withoutCredentials(workflow.webhookUrl) } : {}),
    ...trigger,
    ...(workflow.hookUrl ? { hookUrl: workflow.hookUrl } : {})
});

/** The get shape: the workflow with its schedule and hook state (restore answers it too). */
export const withTrigger = async (services: Services, workflow: SavedWorkflow) => toDetail(workflow, (await services.schedules.views([workflow])).get(workflow.id));

/** A workflow answer with its ETag (http/if-match.ts). */
export const answerWorkflow = (h: ResponseToolkit, detail: ReturnType<typeof toDetail>) => h.response(detail).etag(workflowTag(detail.revision, detail));

export const workflowRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'POST',
        path: '/api/workflows',
        options: {
            tags: ['api', 'workflows'],
            description: 'Create a workflow',
            notes: `The graph is validated and every problem is reported at once in details, each with its path. At most ${MAX_NODES} nodes and ${MAX_EDGES} edges. Send an Idempotency-Key to retry safely: a repeat gets the first answer and creates nothing.`,
            payload,
            validate: {
                payload: Joi.object({ name: name.required(), graph: graph.required(), webhookUrl }),
                headers: idempotencyHeaders,
                options: { abortEarly: false }
            },
            response: { status: { 201: created } },
            plugins: { openapi: { status: 201, errors: [409, 422] } }
        },
        handler: idempotent(services.idempotency, async (request, h, claim) => {
            const workflow = await services.workflows.create(accountIdOf(request), request.payload as WorkflowInput, claim);
            return h
                .response({ workflowId: workflow.id, name: workflow.name, createdAt: workflow.createdAt.toISOString(), ...(workflow.hookUrl ? { hookUrl: workflow.hookUrl } : {}) })
                .code(201);
        })
    },
    {
        method: 'GET',
        path: '/api/workflows',
        options: {
            tags: ['api', 'workflows'],
            description: 'List workflows, newest first',
            notes: PAGE_NOTES,
            validate: { query: Joi.object(pageQuery) },
            response: { status: { 200: Joi.array().items(listItem) } }
        },
        handler: async (request, h) => {
            const page = await services.workflows.list(accountIdOf(request), request.query as ListQuery);
            const triggers = await services.schedules.views(page.items);
            const items = page.items.map((w) => ({ id: w.id, name: w.name, graph: w.graph, revision: w.revision, createdAt: w.createdAt.toISOString(), ...triggers.get(w.id) }));
            return pageResponse(h, request, { items, next: page.next });
        }
    },
    {
        method: 'GET',
        path: '/api/workflows/{workflowId}',
        options: {
            tags: ['api', 'workflows'],
            description: 'One workflow',
            notes: 'ETag is "r<revision>.<digest>" (it changes with anything in the answer, so If-None-Match revalidates): send it as If-Match with a PATCH to be refused (412) should the workflow change meanwhile.',
            validate: {
                params,
                headers: Joi.object({ 'if-none-match': Joi.string().max(1000).description('The ETag of the last answer: 304 while the answer is the same') }).unknown()
            },
            response: { status: { 200: workflowDetail } }
        },
        handler: async (request, h) => {
            const workflow = await services.workflows.getWorkflow(accountIdOf(request), (request.params as { workflowId: string }).workflowId);
            return answerWorkflow(h, await withTrigger(services, workflow));
        }
    },
    {
        method: 'PATCH',
        path: '/api/workflows/{workflowId}',
        options: {
            tags: ['api', 'workflows'],
            description: 'Change a workflow’s name, graph or webhook, or pause and resume it',
            notes: 'Keys left out keep their value. A new graph is validated like on create. A change of name or graph makes the next revision; one that changes neither (webhookUrl, paused) makes none. With If-Match (the ETag of GET, or "r<revision>"), 412 when its name or graph has changed since, and nothing is written. Runs already enqueued keep the revision they were enqueued with.',
            payload,
            validate: {
                params,
                headers: ifMatchHeaders,
                payload: Joi.object({ name, graph, webhookUrl, paused })
                    .min(1)
                    .messages({ 'object.min': 'send at least one of name, graph, webhookUrl, paused' }),
                options: { abortEarly: false }
            },
            response: { status: { 200: workflowDetail } },
            plugins: { owner: { kind: 'workflow', param: 'workflowId' }, openapi: { errors: [412] } }
        },
        handler: async (request, h) => {
            const { workflowId } = request.params as { workflowId: string };
            const ifRevision = ifMatchRevision(request.headers['if-match'] as string | undefined);
            const workflow = await services.workflows.update(accountIdOf(request), workflowId, request.payload as Partial<WorkflowInput>, ifRevision);
            return answerWorkflow(h, await withTrigger(services, workflow));
        }
    },
    {
        method: 'DELETE',
        path: '/api/workflows/{workflowId}',
        options: {
            tags: ['api', 'workflows'],
            description: 'Delete a workflow and all its runs',
            notes: 'Cancels its PENDING and RUNNING runs first and waits up to 5 s for a running one to stop; 409 names a run that did not.',
            plugins: { owner: { kind: 'workflow', param: 'workflowId' }, openapi: { errors: [409] } },
            validate: { params },
            response: { status: { 204: Joi.any().empty() } }
        },
        handler: async (request, h) => {
            await services.workflows.remove(accountIdOf(request), (request.params as { workflowId: string }).workflowId);
            return h.response().code(204);
        }
    }
];
