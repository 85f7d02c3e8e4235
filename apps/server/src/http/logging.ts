import type * as Hapi from '@hapi/hapi';
import type { Logger } from 'pino';

import { loggedPath } from './redact.js';

/**
 * One line per request with its id. Paths are logged without their query string, so tokens passed
 * as `?access_token=` never reach the logs; bodies and headers are never logged.
 */
export const registerLogging = (server: Hapi.Server, log: Logger): void => {
    server.ext('onRequest', (request, h) => {
        const incoming = request.headers['x-request-id'];
        if (typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming)) {
            request.info.id = incoming;
        }

        return h.continue;
    });

    server.events.on('response', (request) => {
        const response = request.response as Hapi.ResponseObject | null;
        const statusCode = response?.statusCode ?? 0;
        const line = {
            reqId: request.info.id,
            method: request.method.toUpperCase(),
            path: loggedPath(request.path),
            statusCode,
            ms: Date.now() - request.info.received,
            accountId: request.auth.credentials?.user?.accountId
        };
        if (statusCode >= 500) {
            log.error(line, 'request failed');
        } else {
            log.info(line, 'request');
        }
    });

    server.ext('onPreResponse', (request, h) => {
        const response = request.response;
        if ('isBoom' in response && response.isBoom) {
            if (response.output.statusCode >= 500) {
                log.error({ reqId: request.info.id, err: response }, 'unexpected error');
            }

            response.output.headers['x-request-id'] = request.info.id;
            return h.continue;
        }

        (response as Hapi.ResponseObject).header('x-request-id', request.info.id);
        return h.continue;
    });
};
