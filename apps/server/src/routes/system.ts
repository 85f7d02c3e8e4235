import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import type { Context } from '../context.js';
import { ping } from '../store/prepared.js';

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
            try {
                await ping(ctx.db);
            } catch {
                throw Boom.serverUnavailable('The database does not answer');
            }

            return { status: 'ready' };
        }
    }
];
