import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';

import { noneMatchFails } from './watch.js';

/**
 * 304 for a GET whose If-None-Match names the answer's ETag weakly (`W/"…"`) or is `*`. hapi's own
 * check, which runs after this one, compares strongly only and knows no `*` (RFC 9110 §13.1.2 asks
 * for weak comparison, and `*` matches any current representation). Only answers that carry an ETag.
 */
export const registerConditionalRequests = (server: Hapi.Server): void => {
    server.ext('onPreResponse', (request, h) => {
        const response = request.response;
        if (Boom.isBoom(response) || (request.method !== 'get' && request.method !== 'head') || response.statusCode !== 200) {
            return h.continue;
        }

        const etag = response.headers.etag;
        if (typeof etag === 'string' && noneMatchFails(request.headers['if-none-match'] as string | undefined, etag)) {
            response.code(304);
        }

        return h.continue;
    });
};
