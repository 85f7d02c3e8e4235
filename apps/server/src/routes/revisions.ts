import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { accountIdOf } from '../http/auth.js';
import { ifMatchHeaders, ifMatchRevision } from '../http/if-match.js';
import { PAGE_NOTES, pageQuery, pageResponse } from '../http/paging.js';
import type { Services } from '../services/index.js';
import type { ListQuery } from '../services/paging.js';
import type { RevisionEntry } from '../services/revisions.js';
import { answerWorkflow, withTrigger, workflowDetail } from './workflows.js';

// A workflow's revisions: GET …/revisions, GET …/revisions/{revision}, POST …/revisions/{revision}/restore.
// Every one is owned: another account's workflow answers 404 before anything else is looked at.

const owner = { kind: 'workflow' as const, param: 'workflowId' };

const params = Joi.object({
    workflowId: Joi.string().required(),
    revision: Joi.number()
        .integer()
        .min(1)
        .max(2_147_483_647)
        .required()
        .description('A revision number: 1, 2, …')
        .messages({ 'number.base': 'revision must be a revision number (1, 2, …)', 'number.min': 'revision must be a revision number (1, 2, …)' })
});

const entry = Joi.object({ revision: Joi.number().integer().min(1).required(), name: Joi.string().required(), createdAt: Joi.string().isoDate().required() });
const revisionDetail = entry.keys({ graph: Joi.object({ nodes: Joi.array().required(), edges: Joi.array().required() }).required() });

const toEntry = (revision: RevisionEntry) => ({ revision: revision.revision, name: revision.name, createdAt: revision.createdAt.toISOString() });

export const revisionRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'GET',
        path: '/api/workflows/{workflowId}/revisions',
        options: {
            tags: ['api', 'workflows'],
            description: "A workflow's revisions, newest first",
            notes: `${PAGE_NOTES} Revision 1 is the workflow as created; each change of name or graph made the next. Kept: every revision a run names (as long as the run), and the newest 100.`,
            plugins: { owner },
            validate: { params: Joi.object({ workflowId: Joi.string().required() }), query: Joi.object(pageQuery) },
            response: { status: { 200: Joi.array().items(entry) } }
        },
        handler: async (request, h) => {
            const { workflowId } = request.params as { workflowId: string };
            const page = await services.revisions.list(accountIdOf(request), workflowId, request.query as ListQuery);
            return pageResponse(h, request, { items: page.items.map(toEntry), next: page.next });
        }
    },
    {
        method: 'GET',
        path: '/api/workflows/{workflowId}/revisions/{revision}',
        options: {
            tags: ['api', 'workflows'],
            description: 'One revision of a workflow: its name and graph then',
            plugins: { owner },
            validate: { params },
            response: { status: { 200: revisionDetail } }
        },
        handler: async (request) => {
            const { workflowId, revision } = request.params as { workflowId: string; revision: number };
            const found = await services.revisions.get(accountIdOf(request), workflowId, revision);
            return { ...toEntry(found), graph: found.graph };
        }
    },
    {
        method: 'POST',
        path: '/api/workflows/{workflowId}/revisions/{revision}/restore',
        options: {
            tags: ['api', 'workflows'],
            description: 'Make a workflow what it was at a revision',
            notes: 'The name and graph of that revision become a new revision, checked like a PATCH (an upload it reads may have been deleted since); the answer is the workflow, as GET gives it. Restoring the current revision changes nothing. If-Match as for PATCH.',
            payload: { parse: false, output: 'data', maxBytes: 64 * 1024 },
            plugins: { owner, openapi: { errors: [412] } },
            validate: { params, headers: ifMatchHeaders },
            response: { status: { 200: workflowDetail } }
        },
        handler: async (request, h) => {
            const { workflowId, revision } = request.params as { workflowId: string; revision: number };
            const workflow = await services.revisions.restore(accountIdOf(request), workflowId, revision, ifMatchRevision(request.headers['if-match'] as string | undefined));
            return answerWorkflow(h, await withTrigger(services, workflow));
        }
    }
];
