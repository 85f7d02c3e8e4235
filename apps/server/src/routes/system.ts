import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import type { Context } from '../context.js';
import { readiness } from '../services/readiness.js';

export const systemRoutes = (ctx: Context): ServerRoute[] => [
    {
        method: 'GET',
        path: '/healthz',
        options: {
            auth: false,
            description: 'The process is up',
            response: { schema: Joi.object({ status: Joi.string().valid('ok') }) }
        },
        handler: () => ({ status: 'ok' })
    },
    {
        method: 'GET',
        path: '/readyz',
        options: {
            auth: false,
            description: 'The store answers',
            response: { schema: Joi.object({ status: Joi.string().valid('ready') }) }
        },
        handler: async () => {
            const problem = await readiness(ctx);
            if (problem) {
                const error = Boom.serverUnavailable(problem);
                error.output.headers['Retry-After'] = '5';
                throw error;
            }

            if (ctx.queue.stuck) {
                throw Boom.serverUnavailable(ctx.queue.stuck);
            }

            return { status: 'ready' };
        }
    }
];
