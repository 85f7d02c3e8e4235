import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';

import type { AccountsService } from '../services/accounts.js';
import { SESSION_ENDED } from '../services/sessions.js';

// Where live sessions are not remembered (PostgreSQL), a route may leave a request's session check to
// its handler's statement (`app.sessionInStatement`, http/auth.ts): one statement per request where
// there were two. Three rules keep that as safe as checking first:
// - the handler's statement takes the check (sessionToCheck) and answers an ended session 401;
// - an answer the handler did not give (joi, a rate limit, a body refused) has the session checked
//   before it is sent: first of the onPreResponse extensions, and in place, so that every later one
//   (x-request-id, RateLimit-*, no-store) still applies to the 401;
// - the account's request budget is spent only once the session is known live (rate-limit.ts), so an
//   ended session's requests never spend it, nor lock its owner out.

const DEFERRED = Symbol('session check deferred');
const UNCHECKED = Symbol('session left to the handler');

type Plugins = Record<symbol, unknown>;

/** Leaves the request's session check to its handler's statement. */
export const deferSession = (request: Hapi.Request): void => {
    const plugins = request.plugins as Plugins;
    plugins[DEFERRED] = true;
    plugins[UNCHECKED] = true;
};

/** Whether the request's session was not checked before its handler (whoever checked it since). */
export const sessionDeferred = (request: Hapi.Request): boolean => (request.plugins as Plugins)[DEFERRED] === true;

/**
 * The session the handler's statement must find live, once; null when it was checked already, or the
 * request has none (a personal API token).
 */
export const sessionToCheck = (request: Hapi.Request): string | null => {
    const plugins = request.plugins as Plugins;
    if (!plugins[UNCHECKED]) {
        return null;
    }

    plugins[UNCHECKED] = false;
    return request.auth.credentials.user?.sessionId ?? null;
};

/** Whether a deferred session was found ended: the answer is its 401 (a valid token gets no other). */
export const endedLate = (request: Hapi.Request): boolean => {
    const response = request.response;
    return sessionDeferred(request) && (Boom.isBoom(response) ? response.output.statusCode : response.statusCode) === 401;
};

/** Register before every other onPreResponse extension (see above). */
export const registerSessionRecheck = (server: Hapi.Server, accounts: Pick<AccountsService, 'sessionSignedInAt'>): void => {
    server.ext('onPreResponse', async (request, h) => {
        const plugins = request.plugins as Plugins;
        if (!plugins[UNCHECKED]) {
            return h.continue;
        }

        plugins[UNCHECKED] = false;
        const user = request.auth.credentials.user!;
        // Should the store fail, the refusal stands: it tells nothing and changes nothing.
        const live = await accounts.sessionSignedInAt(user.sessionId!, user.accountId, false).catch(() => true);
        if (live) {
            return h.continue;
        }

        const ended = Boom.unauthorized(SESSION_ENDED, 'Bearer').output;
        const response = request.response;
        if (!Boom.isBoom(response)) {
            // Not a takeover: the later extensions run on it.
            const answer = h.response(ended.payload).code(401);
            for (const [name, value] of Object.entries(ended.headers)) {
                answer.header(name, String(value));
            }

            return answer;
        }

        // request-bodies.ts closes the connection of a 413 or 408 (a body left unread): so does this 401.
        const closing = response.output.statusCode === 413 || response.output.statusCode === 408;
        response.output.statusCode = 401;
        response.output.payload = ended.payload;
        response.output.headers = { ...ended.headers, ...(closing ? { connection: 'close' } : {}) };
        return h.continue;
    });
};
