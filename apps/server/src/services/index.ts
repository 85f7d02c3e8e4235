import type { Context } from '../context.js';
import { type AccountsService, createAccountsService } from './accounts.js';
import { createDeliveriesService, type DeliveriesService } from './deliveries.js';
import { createGoogleService, type GoogleService } from './google.js';
import { type ApiTokensService, createApiTokensService } from './api-tokens.js';
import { createHooksService, type HooksService } from './hooks.js';
import { createIdempotencyService, type IdempotencyService } from './idempotency.js';
import { createOwnershipService, type OwnershipService } from './ownership.js';
import { createPreviewService, type PreviewService } from './preview.js';
import { createRecentRunsService, type RecentRunsService } from './recent-runs.js';
import { createRevisionsService, type RevisionsService } from './revisions.js';
import { createRunsService, type RunsService } from './runs.js';
import { createSchedulesService, type SchedulesService } from './schedules.js';
import { createSuppressionsService, type SuppressionsService } from './suppressions.js';
import { createUploadsService, type UploadsService } from './uploads.js';
import { createWorkflowsService, type WorkflowsService } from './workflows.js';
import { runDeps } from './run-deps.js';

/** The rules of the service. Routes stay thin and call these; these call the store. */
export type Services = {
    accounts: AccountsService;
    deliveries: DeliveriesService;
    google: GoogleService;
    apiTokens: ApiTokensService;
    hooks: HooksService;
    idempotency: IdempotencyService;
    ownership: OwnershipService;
    preview: PreviewService;
    recentRuns: RecentRunsService;
    revisions: RevisionsService;
    runs: RunsService;
    schedules: SchedulesService;
    suppressions: SuppressionsService;
    uploads: UploadsService;
    workflows: WorkflowsService;
};

export const createServices = (ctx: Context): Services => {
    const google = createGoogleService(ctx);
    const uploads = createUploadsService(ctx);
    const accounts = createAccountsService(ctx);
    const schedules = createSchedulesService(ctx);
    const workflows = createWorkflowsService(ctx, schedules);
    const services: Omit<Services, 'preview'> = {
        accounts,
        deliveries: createDeliveriesService(ctx),
        google,
        apiTokens: createApiTokensService(ctx),
        hooks: createHooksService(ctx, uploads),
        idempotency: createIdempotencyService(ctx),
        ownership: createOwnershipService(ctx),
        recentRuns: createRecentRunsService(ctx),
        revisions: createRevisionsService(ctx, workflows),
        // A page of a DATA_SOURCE's or FILTER's output is read again from its rows.
        runs: createRunsService(ctx, { uploads, google }),
        schedules,
        suppressions: createSuppressionsService(ctx),
        uploads,
        workflows
    };
    // A preview reads rows and asks the model through what a run uses.
    const run = runDeps(ctx, services as Services);
    return { ...services, preview: createPreviewService(ctx, { workflows, accounts, run }) };
};
