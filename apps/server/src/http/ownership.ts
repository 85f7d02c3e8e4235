import type * as Hapi from '@hapi/hapi';
import { findUnstorableText } from '@flowctl/engine';

import type { Owned, OwnershipService } from '../services/ownership.js';
import { accountIdOf } from './auth.js';

// Ownership before anything judges the request: a route whose path names an account's resource
// declares it (`options.plugins.owner = { kind: 'workflow', param: 'workflowId' }`), and another
// account's id then answers the same 404 as an unknown id, whatever the body, query or headers. A
// 400 about them would tell that the id exists. hapi validates (and parses the body) before the
// handler, so the check runs in onCredentials: after authentication, before onPostAuth and joi.
// A route whose request may carry nothing to judge says so (`judged`): such a request is checked by
// the handler's own statement, which answers the same 404 (one statement where there were two).

declare module '@hapi/hapi' {
    interface PluginSpecificConfiguration {
        owner?: {
            kind: Owned;
            param: string;
            /**
             * Whether this request carries something judged before the handler (a header, a body). When
             * false the check is left to the handler, whose statement filters by account. Always, without it.
             */
            judged?: (request: Hapi.Request) => boolean;
        };
    }
}

const DEFERRED = Symbol('a body refused before its owner was checked');

type Plugins = Record<symbol, unknown>;

/**
 * hapi parses the body before any extension point that follows authentication: a body that cannot
 * be parsed (not JSON, wrong type) would answer first. On an owned route that refusal waits until
 * ownership is known. A body too large is refused whatever the path says, as before.
 */
const deferPayloadFailure =
    (failAction: Hapi.Lifecycle.FailAction | undefined): Hapi.Lifecycle.Method =>
    async (request, h, err) => {
        const status = (err as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
        if (status === 413) {
            if (typeof failAction === 'function') {
                return failAction.call(null, request, h, err);
            }

            throw err;
        }

        try {
            if (typeof failAction === 'function') {
                return await failAction.call(null, request, h, err);
            }

            (request.plugins as Plugins)[DEFERRED] = err;
        } catch (refusal) {
            (request.plugins as Plugins)[DEFERRED] = refusal;
        }

        return h.continue;
    };

/** Every route, with the body refusals of owned routes deferred until their owner is checked. */
export const ownedFirst = (routes: Hapi.ServerRoute[]): Hapi.ServerRoute[] =>
    routes.map((route) => {
        const options = route.options as Hapi.RouteOptions | undefined;
        if (!options?.plugins?.owner || String(route.method).toUpperCase() === 'GET') {
            return route;
        }

        // hapi parses a body on every other method, DELETE included, unless the route says otherwise.
        const payload = options.payload ?? {};
        return { ...route, options: { ...options, payload: { ...payload, failAction: deferPayloadFailure(payload.failAction as Hapi.Lifecycle.FailAction) } } };
    });

export const registerOwnership = (server: Hapi.Server, ownership: OwnershipService): void => {
    server.ext('onCredentials', async (request, h) => {
        const owner = request.route.settings.plugins?.owner;
        if (!owner) {
            return h.continue;
        }

        const id = (request.params as Record<string, unknown>)[owner.param];
        // An id PostgreSQL cannot hold is refused, for every account alike, by storable-input.ts.
        if (owner.judged?.(request) !== false && typeof id === 'string' && !findUnstorableText(request.params)) {
            await ownership.check(owner.kind, accountIdOf(request), id);
        }

        // Judged or not: a request whose body did not arrive whole is refused before its handler. Not
        // judged, its refusal (a 408) is the same whoever owns the id.
        const deferred = (request.plugins as Plugins)[DEFERRED];
        if (deferred) {
            throw deferred;
        }

        return h.continue;
    });
};
