import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { usesApiToken } from '../http/api-token-auth.js';
import { accountIdOf, sessionIdOf, signedInAtOf } from '../http/auth.js';
import { jsonPayload } from '../http/json-payload.js';
import { DEFAULT_API_TOKEN_DAYS, MAX_API_TOKEN_DAYS, MAX_API_TOKENS } from '../services/api-tokens.js';
import type { Services } from '../services/index.js';

const timestamp = Joi.string().isoDate();

export const tokenView = Joi.object({
    id: Joi.string().required(),
    name: Joi.string().required(),
    prefix: Joi.string().required().description('The first characters of the token, to tell tokens apart'),
    createdAt: timestamp.required(),
    lastUsedAt: timestamp.allow(null).required().description('Updated at most once a minute'),
    expiresAt: timestamp.allow(null).required().description('null only for tokens made before expiries were required')
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
    expiresInDays: Joi.number()
        .integer()
        .min(1)
        .max(MAX_API_TOKEN_DAYS)
        .default(DEFAULT_API_TOKEN_DAYS)
        .description(`Days until the token expires (default ${DEFAULT_API_TOKEN_DAYS}, at most ${MAX_API_TOKEN_DAYS})`),
    password: Joi.string()
        .max(1024)
        .description("The account's password, needed when the session signed in more than 10 minutes ago (instead of logging in again)")
});

export const tokenRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'POST',
        path: '/api/account/tokens',
        options: {
            tags: ['api', 'account'],
            description: 'Create a personal API token for programs and CI',
            notes: `The answer carries the token once; only its hash is stored. It is accepted as \`Authorization: Bearer\` wherever an access token is, until it expires (${DEFAULT_API_TOKEN_DAYS} days unless \`expiresInDays\` says otherwise, at most ${MAX_API_TOKEN_DAYS}) or is revoked; a password change that signs out the session creating it revokes it too. Needs an access token from a sign-in of the last 10 minutes, or the password again as \`password\` (403 otherwise); an API token cannot create others (403). At most ${MAX_API_TOKENS} per account (409).`,
            payload: jsonPayload(16 * 1024),
            validate: { payload: tokenInput },
            response: { status: { 201: created } },
            // A wrong `password` here is a password guess like a wrong log-in: it shares log-in's limit.
            plugins: { rateLimit: { bucket: 'login' }, openapi: { status: 201, errors: [403, 409] } },
            app: { freshSignIn: true }
        },
        handler: async (request, h) => {
            // A leaked token must not be able to outlive its own revocation by minting another.
            if (usesApiToken(request)) {
                throw Boom.forbidden('An API token cannot create API tokens: log in and use the access token');
            }

            const { password, ...input } = request.payload as { name: string; expiresInDays: number; password?: string };
            const accountId = accountIdOf(request);
            // A stolen access token alone must not mint a credential that outlives its session.
            await services.accounts.confirmRecentSignIn(accountId, { signedInAt: signedInAtOf(request), password });
            // Not an API token (refused above): the request has a session, recorded as the token's maker.
            return h.response(await services.apiTokens.create(accountId, { ...input, sessionId: sessionIdOf(request)! })).code(201);
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
            plugins: { owner: { kind: 'apiToken', param: 'tokenId' } },
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
