import type { Context } from '../context.js';
import type { Services } from '../services/index.js';
import { mergeAiSettings } from './ai.js';
import type { RunDeps } from './ports.js';

/** The worker's view of the services: upload and Drive rows, and AI settings (the account's over the server's). */
export const runDeps = (ctx: Context, services: Services): RunDeps => ({
    readUploadRows: (accountId, uploadId, signal) => services.uploads.readUploadRows(accountId, uploadId, signal),
    async uploadSize(accountId, uploadId) {
        try {
            const upload = await services.uploads.get(accountId, uploadId);
            return { rows: upload.rows, columns: upload.columns.length, bytes: upload.sizeBytes };
        } catch (err) {
            if ((err as { output?: { statusCode?: number } }).output?.statusCode === 404) {
                return null;
            }

            throw err;
        }
    },
    readDriveRows: (accountId, fileId, sheet) => services.google.readDriveRows(accountId, fileId, sheet),
    sweepOrphanUploads: () => services.uploads.sweepOrphanBlobs(),
    forgetUnusedHookUploads: () => services.uploads.forgetUnusedHookUploads(),
    consent: services.suppressions.consent,
    aiSettings: async (accountId) => mergeAiSettings(await services.accounts.getAiSettings(accountId), ctx.config.ai, ctx.config.allowPrivateNetwork)
});
