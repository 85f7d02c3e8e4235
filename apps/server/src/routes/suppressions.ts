import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { accountIdOf } from '../http/auth.js';
import { jsonPayload } from '../http/json-payload.js';
import { PAGE_NOTES, pageQuery, pageResponse } from '../http/paging.js';
import type { Services } from '../services/index.js';
import type { ListQuery } from '../services/paging.js';
import { MAX_SUPPRESSIONS_PER_REQUEST } from '../services/suppressions.js';

const suppressionView = Joi.object({
    email: Joi.string().required().description('As it was first given'),
    reason: Joi.string().valid('unsubscribed', 'bounced', 'complained', 'manual').required(),
    workflowId: Joi.string().allow(null).required().description('The workflow whose e-mail led to it (unsubscribe, bounce, complaint); null when added by hand'),
    createdAt: Joi.string().isoDate().required()
});

const addInput = Joi.object({
    emails: Joi.array()
        .items(Joi.string().max(320).required())
        .min(1)
        .max(MAX_SUPPRESSIONS_PER_REQUEST)
        .required()
        .description(`Addresses to suppress (reason manual), at most ${MAX_SUPPRESSIONS_PER_REQUEST} a request; compared trimmed and case-insensitively`)
});

export const suppressionRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'GET',
        path: '/api/suppressions',
        options: {
            tags: ['api', 'suppressions'],
            description: "The account's suppression list, newest first: addresses no OUTPUT node mails",
            notes: PAGE_NOTES,
            validate: { query: Joi.object(pageQuery) },
            response: { status: { 200: Joi.array().items(suppressionView) } }
        },
        handler: async (request, h) => pageResponse(h, request, await services.suppressions.list(accountIdOf(request), request.query as ListQuery))
    },
    {
        method: 'POST',
        path: '/api/suppressions',
        options: {
            tags: ['api', 'suppressions'],
            description: 'Add addresses to the suppression list (reason manual)',
            notes: 'All or nothing: one address that is not an e-mail address answers 400 listing each (details[].path emails[i]) and adds none. An address already on the list keeps its reason and date, and is counted in alreadyPresent.',
            payload: jsonPayload(2 * 1024 * 1024),
            validate: { payload: addInput },
            response: { status: { 200: Joi.object({ added: Joi.number().integer().required(), alreadyPresent: Joi.number().integer().required() }) } }
        },
        handler: (request) => services.suppressions.add(accountIdOf(request), (request.payload as { emails: string[] }).emails)
    },
    {
        method: 'DELETE',
        path: '/api/suppressions/{email}',
        options: {
            tags: ['api', 'suppressions'],
            description: 'Remove an address from the suppression list: OUTPUT nodes mail it again',
            notes: 'The address is compared trimmed and case-insensitively. 404 when it is not on the list.',
            validate: { params: Joi.object({ email: Joi.string().max(320).required() }) },
            plugins: { openapi: { errors: [404] } },
            response: { status: { 204: Joi.any().empty() } }
        },
        handler: async (request, h) => {
            await services.suppressions.remove(accountIdOf(request), (request.params as { email: string }).email);
            return h.response().code(204);
        }
    }
];
