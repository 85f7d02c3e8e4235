import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { usesApiToken } from '../http/api-token-auth.js';
import { accountIdOf } from '../http/auth.js';
import { jsonPayload } from '../http/json-payload.js';
import { MAX_API_TOKENS } from '../services/api-tokens.js';
import type { Services } from '../services/index.js';

const timestamp = Joi.string().isoDate();

const tokenView = Joi.object({
    id: Joi.string().required(),
    name: Joi.string().required(),
    prefix: Joi.string().required().description('The first characters of the token, to tell tokens apart'),
    createdAt: timestamp.required(),
    lastUsedAt: timestamp.allow(null).required().description('Updated at most once a minute'),
    expiresAt: timestamp.allow(null).required().description('null: never expires')
});

const created = tokenView.keys({
    token: Joi.string().required().description('The secret, shown this once: send it as `Authorization: Bearer flc_…`')
});

const tokenInput = Joi.object({
    name: Joi.string()
        .trim()
        .min(1)
        .max(100)
        .pattern(/^[^\u0000-\u001f\u007f]*$/, 'no control characters')
        .required()
        .description('What the token is for, e.g. "CI deploys"')
        .messages({ 'string.pattern.name': "'name' must not contain line breaks or other control characters" }),
    expiresInDays: Joi.number().integer().min(1).max(3650).description('Left out: the token lasts until revoked')
});

export const tokenRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'POST',
        path: '/api/account/tokens',
        options: {
            tags: ['api', 'account'],
            description: 'Create a personal API token for programs and CI',
            notes: `The answer carries the token once; only its hash is stored. It is accepted as \`Authorization: Bearer\` wherever an access token is, until it expires or is revoked. Needs an access token: an API token cannot create others (403). At most ${MAX_API_TOKENS} per account (409).`,
            payload: jsonPayload(16 * 1024),
            validate: { payload: tokenInput },
            response: { status: { 201: created } },
            plugins: { openapi: { status: 201, errors: [403, 409] } }
        },
        handler: async (request, h) => {
            // A leaked token must not be able to outlive its own revocation by minting another.
            if (usesApiToken(request)) {
                throw Boom.forbidden('An API token cannot create API tokens: log in and use the access token');
            }

            const input = request.payload as { name: string; expiresInDays?: number };
            return h.response(await services.apiTokens.create(accountIdOf(request), input)).code(201);
        }
    },
    {
        method: 'GET',
        path: '/api/account/tokens',
        options: {
            tags: ['api', 'account'],
            description: "The account's personal API tokens, newest first (never their secrets)",
            response: { status: { 200: Joi.array().items(tokenView) } }
        },
        handler: (request) => services.apiTokens.list(accountIdOf(request))
    },
    {
        method: 'DELETE',
        path: '/api/account/tokens/{tokenId}',
        options: {
            tags: ['api', 'account'],
            description: 'Revoke a personal API token',
            notes: 'Takes effect at once, in every API process.',
            validate: { params: Joi.object({ tokenId: Joi.string().max(200).required() }) },
            response: { status: { 204: Joi.any().empty() } }
        },
        handler: async (request, h) => {
            await services.apiTokens.revoke(accountIdOf(request), (request.params as { tokenId: string }).tokenId);
            return h.response().code(204);
        }
    }
];
