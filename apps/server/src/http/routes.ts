import type { ServerRoute } from '@hapi/hapi';

import type { Context } from '../context.js';
import { accountRoutes } from '../routes/accounts.js';
import { googleRoutes } from '../routes/google.js';
import { hookRoutes } from '../routes/hooks.js';
import { metricsRoutes } from '../routes/metrics.js';
import { openApiRoutes } from '../routes/openapi.js';
import { previewRoutes } from '../routes/preview.js';
import { revisionRoutes } from '../routes/revisions.js';
import { runRoutes } from '../routes/runs.js';
import { settingsRoutes } from '../routes/settings.js';
import { suppressionRoutes } from '../routes/suppressions.js';
import { systemRoutes } from '../routes/system.js';
import { tokenRoutes } from '../routes/tokens.js';
import { unsubscribeRoutes } from '../routes/unsubscribe.js';
import { uploadRoutes } from '../routes/uploads.js';
import { workflowRoutes } from '../routes/workflows.js';
import { ownedFirst } from './ownership.js';
import type { Services } from '../services/index.js';

/** Every route the API serves; each area keeps its schemas beside its routes in src/routes/. */
export const routes = (ctx: Context, services: Services): ServerRoute[] =>
    ownedFirst([
    ...systemRoutes(ctx),
    ...metricsRoutes(ctx),
    ...openApiRoutes(ctx),
    ...accountRoutes(services),
    ...settingsRoutes(services),
    ...tokenRoutes(services),
    ...uploadRoutes(ctx, services),
    ...hookRoutes(ctx, services),
    ...workflowRoutes(services),
    ...revisionRoutes(services),
    ...runRoutes(services),
    ...previewRoutes(services),
    ...googleRoutes(services),
    ...suppressionRoutes(services),
    ...unsubscribeRoutes(services)
    ]);
