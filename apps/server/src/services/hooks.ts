import { Readable } from 'node:stream';

import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { newId } from '../ids.js';
import { DRAIN_JOB } from '../store/queue.js';
import { enqueueHookRun, workflowByHook } from '../store/schedules.js';
import { jsonRowsToCsv } from './hook-rows.js';
import { type IdempotencyClaim, insertKeyed } from './idempotency.js';
import { hookHash } from './schedules.js';
import type { UploadsService } from './uploads.js';

export interface HookOwner {
    accountId: string;
    workflowId: string;
    /** SHA-256 of the hook id: what logs may show of it. */
    hookHash: string;
}

export interface HooksService {
    /** The workflow a hook id starts; 404 for an unknown (or rotated) id, 409 while it is paused. */
    identify(hookId: string): Promise<HookOwner>;
    /** Stores the body's rows as an upload (deleted with the last run that names it) and enqueues a run that reads them. */
    start(
        owner: HookOwner,
        body: { contentType: 'json' | 'csv' | 'none'; bytes: Buffer },
        claim?: IdempotencyClaim | null
    ): Promise<{ runId: string; status: 'PENDING' }>;
}

export const createHooksService = (ctx: Context, uploads: UploadsService): HooksService => ({
    async identify(hookId) {
        const hash = hookHash(hookId);
        const found = await workflowByHook(ctx.db, hash);
        if (!found) {
            // The id is never echoed: it is a secret, and this one may be a mistyped real one.
            throw Boom.notFound('Unknown hook: its workflow was deleted, its hook was rotated or removed, or the URL is mistyped');
        }

        if (found.paused) {
            throw Boom.conflict(`Workflow '${found.workflow_id}' is paused: resume it (flowctl workflows resume ${found.workflow_id}) to start runs from its hook`);
        }

        return { accountId: found.account_id, workflowId: found.workflow_id, hookHash: hash };
    },

    async start(owner, body, claim = null) {
        // Both kinds take the upload path, which checks the CSV in paced pieces (uploads.ts); JSON is
        // cut into rows and converted a slice at a time (hook-rows.ts): no body holds the event loop.
        let csv: Readable | null = null;
        if (body.contentType === 'csv' && body.bytes.length > 0) {
            csv = Readable.from([body.bytes]);
        } else if (body.contentType === 'json' && body.bytes.length > 0) {
            csv = await jsonRowsToCsv(body.bytes);
        }

        const hook = { generated: body.contentType === 'json' };
        const uploadId = csv === null ? null : (await uploads.create(owner.accountId, { filename: 'hook.csv', body: csv, hook })).upload.uploadId;
        const runId = newId('run');
        const removeUpload = async () => {
            if (uploadId) {
                await uploads.remove(owner.accountId, uploadId).catch(() => {});
            }
        };
        const enqueued = await insertKeyed(ctx.db, 'runs', owner.accountId, claim, () => enqueueHookRun(ctx.db, runId, owner.workflowId, uploadId, claim)).catch(
            async (err: Error) => {
                // The key was another request's: nothing was enqueued. (After a store failure the run may
                // have been committed all the same; an upload no run names is swept after an hour.)
                if (Boom.isBoom(err) && err.output.statusCode === 422) {
                    await removeUpload();
                }

                throw err;
            }
        );
        if (!enqueued || 'earlier' in enqueued) {
            await removeUpload();
            if (enqueued) {
                return { runId: enqueued.earlier.id, status: 'PENDING' };
            }

            throw Boom.notFound('Unknown hook: its workflow was deleted');
        }

        const row = enqueued.inserted;
        if (row.job_id) {
            ctx.queue.announce(row.job_id, DRAIN_JOB);
        }

        if (row.held) {
            ctx.queue.wakes.wake(owner.workflowId);
        }

        ctx.log.info({ workflowId: owner.workflowId, hookHash: owner.hookHash.slice(0, 16), runId, uploadId }, 'run started by its hook');
        return { runId, status: 'PENDING' };
    }
});
