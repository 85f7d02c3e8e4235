import type { ServerRoute } from '@hapi/hapi';

import type { Context } from '../context.js';

export const metricsRoutes = (ctx: Context): ServerRoute[] => [
    {
        method: 'GET',
        path: '/metrics',
        options: {
            auth: false,
            tags: ['api', 'system'],
            description: 'Prometheus metrics: process, HTTP requests by route template, and the run worker',
            plugins: { openapi: { produces: ['text/plain'] } }
        },
        handler: async (_request, h) => h.response(await ctx.metrics.metrics()).type(ctx.metrics.contentType)
    }
];
