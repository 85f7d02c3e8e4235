import Crypto from 'node:crypto';

import type { AiRequest } from '@flowctl/engine';

import { type AiEndpoint, DEFAULT_MODEL } from './client.js';

/**
 * What makes a reply the answer to a request: model, messages and schema, not the element's index.
 * Runs and previews hash alike, so a reply one paid for answers the same request in the other.
 */
export const aiRequestHash = (endpoint: AiEndpoint, request: AiRequest): string =>
    Crypto.createHash('sha256')
        .update(JSON.stringify([request.model ?? endpoint.model ?? DEFAULT_MODEL, request.system ?? null, request.prompt, request.schema]))
        .digest('base64url');
