import type { Context } from '../context.js';
import type { Services } from '../services/index.js';
import { mergeAiSettings } from './ai.js';
import type { RunDeps } from './ports.js';

/** The worker's view of the services: upload and Drive rows, and AI settings (the account's over the server's). */
export const runDeps = (ctx: Context, services: Services): RunDeps => ({
    readUploadRows: (accountId, uploadId) => services.uploads.readUploadRows(accountId, uploadId),
    readDriveRows: (accountId, fileId, sheet) => services.google.readDriveRows(accountId, fileId, sheet),
    aiSettings: async (accountId) => mergeAiSettings(await services.accounts.getAiSettings(accountId), ctx.config.ai, ctx.config.allowPrivateNetwork)
});
