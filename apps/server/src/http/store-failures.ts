import type * as Hapi from '@hapi/hapi';

import { storeFailure } from '../store/failures.js';

/** Seconds a client is told to wait: a restarting database is usually back within a few. */
const RETRY_AFTER_UNAVAILABLE = 5;
const RETRY_AFTER_FULL = 60;

/**
 * A request that failed because the store is down, frozen (our statement timeout) or full is
 * answered 503 with Retry-After, as the OpenAPI document promises, not 500: the client did nothing
 * wrong and may simply try again. Every route and auth scheme reaches the store through the same
 * client, so this one place sees all such failures.
 */
export const registerStoreFailures = (server: Hapi.Server): void => {
    server.ext('onPreResponse', (request, h) => {
        const response = request.response;
        if (!('isBoom' in response) || !response.isBoom) {
            return h.continue;
        }

        // Every 503 says when to try again, also where its cause (a relay, Google) did not say.
        if (response.output.statusCode === 503 && !response.output.headers['Retry-After']) {
            response.output.headers['Retry-After'] = String(RETRY_AFTER_UNAVAILABLE);
        }

        if (response.output.statusCode !== 500) {
            return h.continue;
        }

        const failure = storeFailure(response) ?? storeFailure(response.data);
        if (!failure) {
            return h.continue;
        }

        // Made a 503 in place: a Boom returned from onPreResponse would skip the extensions after this
        // one (hapi's _invoke), and the answer would lose its x-request-id, its RateLimit-* headers and,
        // for a token in the address, its no-store and no-referrer. The cause stays the error's message,
        // for the logs (logging.ts logs 5xx with their error).
        const message =
            failure === 'full'
                ? "The server's storage is full: nothing can be saved until its operator frees disk space. Try again later."
                : 'The database is unavailable at the moment. Try again shortly.';
        response.output.statusCode = 503;
        response.output.payload = { statusCode: 503, error: 'Service Unavailable', message };
        response.output.headers['Retry-After'] = String(failure === 'full' ? RETRY_AFTER_FULL : RETRY_AFTER_UNAVAILABLE);
        return h.continue;
    });
};
