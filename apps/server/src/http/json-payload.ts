import type { RouteOptionsPayload } from '@hapi/hapi';

import { explainPayloadErrors, formatBytes } from './payload.js';

/** Payload options for a route that takes a small JSON body: other types are a 415, saying what to send. */
export const jsonPayload = (maxBytes: number): RouteOptionsPayload => ({
    maxBytes,
    allow: 'application/json',
    failAction: explainPayloadErrors({
        tooLarge: (limit) => `The request body is larger than ${formatBytes(limit)}: send only the documented fields`,
        wrongType: (received) => `Send the request body as JSON with 'Content-Type: application/json' (got '${received}')`
    })
});
