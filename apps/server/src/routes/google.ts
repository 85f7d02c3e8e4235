import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { accountIdOf } from '../http/auth.js';
import type { Services } from '../services/index.js';
import { linkPage } from './google-page.js';

const statusView = Joi.object({
    connected: Joi.boolean().required(),
    email: Joi.string().description('The linked Google account; absent when not connected')
}).label('GoogleStatus');

export const googleRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'GET',
        path: '/api/integrations/google/status',
        options: {
            tags: ['api', 'google'],
            description: 'Whether a Google account is linked, and which',
            response: { status: { 200: statusView } }
        },
        handler: (request) => services.google.status(accountIdOf(request))
    },
    {
        method: 'GET',
        path: '/api/integrations/google/connect',
        options: {
            tags: ['api', 'google'],
            description: "Start linking a Google account: redirects to Google's consent page",
            notes: [
                'Meant for a browser, so the access token (or a personal API token) may come as ?access_token= instead of the Authorization header.',
                'With ?format=json the answer is 200 {url} instead of the redirect, for clients that open the browser themselves.',
                'The state in the address is signed, bound to the account, works once and expires in 10 minutes.'
            ],
            ext: {
                onPreAuth: {
                    method: (request, h) => {
                        const token = (request.query as { access_token?: string }).access_token;
                        if (token && !request.headers.authorization) {
                            request.headers.authorization = `Bearer ${token}`;
                        }

                        return h.continue;
                    }
                }
            },
            validate: {
                query: Joi.object({
                    access_token: Joi.string().max(4096).description('The bearer token, for a browser that cannot send the header'),
                    format: Joi.string().valid('redirect', 'json').default('redirect')
                })
            },
            response: {
                status: {
                    200: Joi.object({ url: Joi.string().uri().required() }).label('GoogleConnectUrl'),
                    302: Joi.any().description("Redirect to Google's consent page (Location)")
                }
            },
            // Answered with Cache-Control: no-store and Referrer-Policy: no-referrer (see http/url-credentials.ts).
            plugins: { openapi: { errors: [503] }, credentialsInUrl: true }
        },
        handler: async (request, h) => {
            const url = await services.google.connectUrl(accountIdOf(request));
            return (request.query as { format: string }).format === 'json' ? { url } : h.redirect(url).code(302);
        }
    },
    {
        method: 'GET',
        path: '/api/integrations/google/callback',
        options: {
            auth: false,
            tags: ['api', 'google'],
            description: 'Where Google sends the browser back after consent; answers a small HTML page',
            validate: {
                // Google adds parameters of its own (scope, authuser, prompt, hd, iss): they are ignored.
                query: Joi.object({
                    state: Joi.string().max(1000),
                    code: Joi.string().max(4096),
                    error: Joi.string().max(200)
                }).unknown(true)
            },
            plugins: { openapi: { produces: ['text/html'], errors: [403, 502] } }
        },
        handler: async (request, h) => {
            const outcome = await services.google.finishLink(request.query as { state?: string; code?: string; error?: string });
            const { status, html } = linkPage(outcome);
            return h
                .response(html)
                .code(status)
                .type('text/html; charset=utf-8')
                .header('cache-control', 'no-store')
                .header('referrer-policy', 'no-referrer')
                .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
        }
    },
    {
        method: 'DELETE',
        path: '/api/integrations/google',
        options: {
            tags: ['api', 'google'],
            description: 'Unlink the Google account: revokes its token at Google (best effort) and forgets it',
            response: { status: { 204: Joi.any().empty() } }
        },
        handler: async (request, h) => {
            await services.google.disconnect(accountIdOf(request));
            return h.response().code(204);
        }
    }
];
