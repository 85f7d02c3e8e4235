import type { ServerRoute } from '@hapi/hapi';

import type { Context } from '../context.js';
import { systemRoutes } from '../routes/system.js';
import type { Services } from '../services/index.js';

/** Every route the API serves; each area keeps its schemas beside its routes in src/routes/. */
export const routes = (ctx: Context, _services: Services): ServerRoute[] => [...systemRoutes(ctx)];
