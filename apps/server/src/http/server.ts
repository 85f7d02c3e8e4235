import Hapi, { type ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import type { Context } from '../context.js';
import type { Services } from '../services/index.js';
import { API_TOKEN_STRATEGY, registerApiTokenAuth } from './api-token-auth.js';
import { ACCESS_TOKEN_STRATEGIES, registerAuth } from './auth.js';
import { registerHookAuth } from './hook-auth.js';
import { registerConditionalRequests } from './conditional.js';
import { createListener } from './connections.js';
import { registerLogging } from './logging.js';
import { ownedFirst, registerOwnership } from './ownership.js';
import { registerHttpMetrics } from './metrics.js';
import { registerRateLimits } from './rate-limit.js';
import { registerRequestBodies } from './request-bodies.js';
import { registerStorableInput } from './storable-input.js';
import { registerStoreFailures } from './store-failures.js';
import { registerUrlCredentials } from './url-credentials.js';
import { failValidation } from './validation.js';

export interface HttpOptions {
    /** Check every response against its route's schema (on in tests; costs time in production). */
    validateResponses: boolean;
}

/** `routes`: the route table, assembled by app.ts from src/routes/ (http sits below the routes it serves). */
export const createHttpServer = async (ctx: Context, services: Services, routes: ServerRoute[], options: HttpOptions): Promise<Hapi.Server> => {
    const server = Hapi.server({
        listener: createListener(ctx.config),
        port: ctx.config.port,
        host: ctx.config.host,
        router: { stripTrailingSlash: true },
        routes: {
            // No query parameters unless a route declares them: an unknown one is a 400 everywhere alike.
            validate: { failAction: failValidation, query: Joi.object({}) },
            response: options.validateResponses ? { failAction: 'error' } : { sample: 0 },
            // Slow bodies are timed by request-bodies.ts: hapi's own timeout answers only once the body is whole.
            payload: { maxBytes: 1024 * 1024, timeout: false },
            timeout: { server: false, socket: false }
        }
    });

    // Before logging: its onPreResponse then logs the 503 a store failure is answered with.
    registerStoreFailures(server);
    registerLogging(server, ctx.log);
    registerHttpMetrics(server, ctx.metrics);
    registerRateLimits(server, ctx);
    registerRequestBodies(server, { bodyTimeoutSeconds: ctx.config.bodyTimeoutSeconds, requestTimeoutSeconds: ctx.config.requestTimeoutSeconds });
    await registerAuth(server, ctx.secrets.jwtSecret, services.accounts);
    registerOwnership(server, services.ownership);
    registerStorableInput(server);
    registerConditionalRequests(server);
    registerUrlCredentials(server);
    registerApiTokenAuth(server, services.apiTokens);
    registerHookAuth(server, services.hooks);
    // hapi tries these in order; the API-token scheme passes anything not `flc_…` on to the JWT checks.
    server.auth.default({ strategies: [API_TOKEN_STRATEGY, ...ACCESS_TOKEN_STRATEGIES] });
    server.route(ownedFirst(routes));
    return server;
};
