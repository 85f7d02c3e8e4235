import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';

import { API_TOKEN_PREFIX, type ApiTokensService } from '../services/api-tokens.js';

export const API_TOKEN_STRATEGY = 'api-token';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * "Not mine": a strategy that does not know the request's credentials answers this, and the next
 * strategy runs. hapi only reads that it is a missing-credentials 401; the stack trace an Error records
 * is never shown, and recording it cost 13 % of an authenticated GET's CPU (a profile under load on
 * PostgreSQL). Also remembered-tokens.ts's answer.
 */
export const notMine = (): Boom.Boom => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
        return Boom.unauthorized(null, 'Bearer');
    } finally {
        Error.stackTraceLimit = limit;
    }
};

/**
 * `Authorization: Bearer flc_…`: a personal API token, looked up by its hash. Anything else is
 * "missing" for this scheme, answered without a database hit, so the next strategy (the JWT) runs.
 */
export const registerApiTokenAuth = (server: Hapi.Server, apiTokens: ApiTokensService): void => {
    server.auth.scheme(API_TOKEN_STRATEGY, () => ({
        async authenticate(request, h) {
            const token = BEARER.exec(String(request.headers.authorization ?? ''))?.[1];
            if (!token?.startsWith(API_TOKEN_PREFIX)) {
                return h.unauthenticated(notMine());
            }

            const accountId = await apiTokens.authenticate(token);
            if (!accountId) {
                return h.unauthenticated(Boom.unauthorized('Invalid API token: it is unknown, revoked or expired', 'Bearer'));
            }

            return h.authenticated({ credentials: { user: { accountId } } });
        }
    }));
    server.auth.strategy(API_TOKEN_STRATEGY, API_TOKEN_STRATEGY);
};

/** True when the request was authenticated with a personal API token rather than an access token. */
export const usesApiToken = (request: Hapi.Request): boolean => request.auth.strategy === API_TOKEN_STRATEGY;
