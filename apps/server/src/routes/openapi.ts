import type { ServerRoute } from '@hapi/hapi';

import packageJson from '../../package.json' with { type: 'json' };
import type { Context } from '../context.js';
import { buildOpenApi } from '../http/openapi.js';

export const openApiRoutes = (ctx: Context): ServerRoute[] => {
    // Built on the first request, when every route is registered; routes never change afterwards.
    let document: ReturnType<typeof buildOpenApi> | null = null;
    return [
        {
            method: 'GET',
            path: '/openapi.json',
            options: {
                auth: false,
                tags: ['api', 'system'],
                description: 'This API as an OpenAPI 3.0 document, generated from the route schemas'
            },
            handler: (request) => {
                document ??= buildOpenApi(request.server, { title: 'flowctl API', version: packageJson.version, serverUrl: ctx.config.publicUrl });
                return document;
            }
        }
    ];
};
