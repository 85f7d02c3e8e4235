import type { Context } from '../context.js';
import { type AccountsService, createAccountsService } from './accounts.js';
import { type ApiTokensService, createApiTokensService } from './api-tokens.js';
import { createIdempotencyService, type IdempotencyService } from './idempotency.js';
import { createRunsService, type RunsService } from './runs.js';
import { createUploadsService, type UploadsService } from './uploads.js';
import { createWorkflowsService, type WorkflowsService } from './workflows.js';

/** The rules of the service. Routes stay thin and call these; these call the store. */
export type Services = {
    accounts: AccountsService;
    apiTokens: ApiTokensService;
    idempotency: IdempotencyService;
    runs: RunsService;
    uploads: UploadsService;
    workflows: WorkflowsService;
};

export const createServices = (ctx: Context): Services => ({
    accounts: createAccountsService(ctx),
    apiTokens: createApiTokensService(ctx),
    idempotency: createIdempotencyService(ctx),
    runs: createRunsService(ctx),
    uploads: createUploadsService(ctx),
    workflows: createWorkflowsService(ctx)
});
