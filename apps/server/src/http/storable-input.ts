import type * as Hapi from '@hapi/hapi';
import { findUnstorableText } from '@flowctl/engine';

import { badRequest } from '../services/errors.js';

const SOURCES = ['params', 'query', 'payload'] as const;

/**
 * Refuses NUL characters and lone surrogates in path parameters, the query and JSON bodies before
 * any route sees them: PostgreSQL cannot store them, and a statement that carries one fails. After
 * authentication (an anonymous caller still gets 401), before validation.
 */
export const registerStorableInput = (server: Hapi.Server): void => {
    server.ext('onPostAuth', (request, h) => {
        for (const source of SOURCES) {
            const value = request[source];
            // A streamed body (uploads) is not parsed here; its text is checked as it is read.
            if (value === null || typeof value !== 'object' || typeof (value as { pipe?: unknown }).pipe === 'function' || Buffer.isBuffer(value)) {
                continue;
            }

            const found = findUnstorableText(value);
            if (found) {
                throw badRequest(`Invalid request ${source}: ${found.message}`, [found]);
            }
        }

        return h.continue;
    });
};
