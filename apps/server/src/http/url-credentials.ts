import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';

declare module '@hapi/hapi' {
    interface PluginSpecificConfiguration {
        /** The route takes a bearer token in its address (see below). */
        credentialsInUrl?: boolean;
    }
}

/**
 * A route that takes a bearer token in its address (`?access_token=`, for a browser that cannot send
 * the header) marks itself with `plugins: { credentialsInUrl: true }`. Its every answer (the redirect,
 * the errors) and any answer to an address that carries a token is neither stored by a cache nor
 * followed by a Referer naming that address: either would hand the token to someone else.
 */
export const registerUrlCredentials = (server: Hapi.Server): void => {
    server.ext('onPreResponse', (request, h) => {
        const marked = request.route.settings.plugins?.credentialsInUrl === true;
        // `request.url` is null for the request target `*` (OPTIONS *), which carries no query.
        if (!marked && !request.url?.searchParams.has('access_token')) {
            return h.continue;
        }

        const response = request.response;
        const headers = Boom.isBoom(response) ? response.output.headers : null;
        for (const [name, value] of [
            ['cache-control', 'no-store'],
            ['referrer-policy', 'no-referrer']
        ] as const) {
            if (headers) {
                headers[name] = value;
            } else {
                (response as Hapi.ResponseObject).header(name, value);
            }
        }

        return h.continue;
    });
};
