import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { accountIdOf } from '../http/auth.js';
import { PAGE_NOTES, pageQuery, pageResponse } from '../http/paging.js';
import type { Services } from '../services/index.js';
import type { ListQuery } from '../services/paging.js';

const timestamp = Joi.string().isoDate();

const recentRun = Joi.object({
    runId: Joi.string().required(),
    workflowId: Joi.string().required(),
    workflowName: Joi.string().allow('').required(),
    status: Joi.string().valid('PENDING', 'RUNNING', 'SUCCESS', 'FAILED', 'CANCELLED').required(),
    trigger: Joi.string().valid('manual', 'schedule', 'webhook', 'retry').required().description('`manual`: enqueued through the API (CLI, SDK); `schedule`: a tick of its schedule; `webhook`: its hook; `retry`: a retry of `retryOf`'),
    retryOf: Joi.string().allow(null).required(),
    createdAt: timestamp.required(),
    startedAt: timestamp.allow(null).required(),
    completedAt: timestamp.allow(null).required(),
    durationMs: Joi.number().integer().min(0).allow(null).required().description('From start to end (to now while running); null before it starts'),
    emailsSent: Joi.number().integer().min(0).allow(null).required().description('Null before the run has figures')
}).label('RecentRun');

export const recentRunRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'GET',
        path: '/api/runs',
        options: {
            tags: ['api', 'runs'],
            description: "The account's recent runs across its workflows, newest first",
            notes: [PAGE_NOTES, "One workflow's runs: GET /api/workflows/{workflowId}/runs. A run with its nodes: GET /api/workflows/runs/{runId}."],
            validate: { query: Joi.object(pageQuery) },
            response: { status: { 200: Joi.array().items(recentRun) } }
        },
        handler: async (request, h) => pageResponse(h, request, await services.recentRuns.list(accountIdOf(request), request.query as ListQuery))
    }
];
