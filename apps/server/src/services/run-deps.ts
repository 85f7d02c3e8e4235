import type { Row } from '@flowctl/engine';

import { type AiEndpoint, mergeAiSettings } from '../ai/client.js';
import type { Context } from '../context.js';
import type { UploadSize } from '../run-memory.js';
import type { Services } from './index.js';
import type { RunConsent } from './suppressions.js';

/** What a run (the worker's, or a preview) needs from the services, so that neither depends on how services are built. */
export interface RunDeps {
    readUploadRows(accountId: string, uploadId: string, signal?: AbortSignal): Promise<Row[]>;
    /** Rows, columns and bytes of an upload of the account; null when there is no such upload. */
    uploadSize(accountId: string, uploadId: string): Promise<UploadSize | null>;
    /** A Drive CSV or Google Sheet (`sheet`: one sheet by name) of the account's linked Google account. */
    readDriveRows(accountId: string, fileId: string, sheet?: string): Promise<Row[]>;
    /** The account's AI settings merged with the server's defaults. */
    aiSettings(accountId: string): Promise<AiEndpoint>;
    /** Removes upload bytes that no upload owns (an upload that failed half-way); how many went. */
    sweepOrphanUploads(): Promise<number>;
    /** Deletes the uploads of hook requests that no run names any more (after deleteExpiredRuns). */
    forgetUnusedHookUploads(): Promise<number>;
    /** Recipients' consent: the suppression list, unsubscribe links, VERP senders (services/suppressions.ts). */
    consent?: RunConsent;
}

/** A run's view of the services: upload and Drive rows, and AI settings (the account's over the server's). */
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
