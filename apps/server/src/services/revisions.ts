import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { getRevision, listRevisions, type RevisionEntry, type RevisionRecord } from '../store/revisions.js';
import type { ListPage, ListQuery } from './paging.js';
import type { SavedWorkflow, WorkflowsService } from './workflows.js';

export type { RevisionEntry, RevisionRecord } from '../store/revisions.js';

export interface RevisionsService {
    /** Newest first; `next` is the cursor of the next page. 404 for an unknown or foreign workflow. */
    list(accountId: string, workflowId: string, query: ListQuery): Promise<ListPage<RevisionEntry>>;
    /** 404 when the workflow or the revision is unknown (or gone: see retention.ts). */
    get(accountId: string, workflowId: string, revision: number): Promise<RevisionRecord>;
    /**
     * Makes the workflow's name and graph those of `revision` again, as a new revision (checked like
     * any change: an upload it reads may be gone). Restoring what is current changes nothing.
     */
    restore(accountId: string, workflowId: string, revision: number, ifRevision?: number): Promise<SavedWorkflow>;
}

const INT_MAX = 2_147_483_647;

/** Cursors are opaque to clients: the revision the page ended at. */
const encodeCursor = (revision: number): string => `v${revision.toString(36)}`;
const decodeCursor = (cursor: string): number => {
    const revision = /^v[0-9a-z]{1,7}$/.test(cursor) ? Number.parseInt(cursor.slice(1), 36) : Number.NaN;
    // Seven base-36 digits reach past the integer column a revision is.
    if (!Number.isSafeInteger(revision) || revision < 1 || revision > INT_MAX) {
        throw Boom.badRequest(`Invalid cursor '${cursor.slice(0, 40)}': pass the cursor from the Link header of the previous page`);
    }

    return revision;
};

const workflowNotFound = (workflowId: string) => Boom.notFound(`Workflow '${workflowId}' not found`);

export const createRevisionsService = (ctx: Context, workflows: WorkflowsService): RevisionsService => {
    const get = async (accountId: string, workflowId: string, revision: number): Promise<RevisionRecord> => {
        const found = await getRevision(ctx.db, accountId, workflowId, revision);
        if (found) {
            return found;
        }

        const workflow = await workflows.getWorkflow(accountId, workflowId);
        throw Boom.notFound(
            revision > workflow.revision
                ? `Workflow '${workflowId}' has no revision ${revision}: its newest is ${workflow.revision}`
                : `Revision ${revision} of workflow '${workflowId}' is no longer kept: no run names it and it is older than the newest 100 (GET /api/workflows/${workflowId}/revisions lists those kept)`
        );
    };

    return {
        async list(accountId, workflowId, query) {
            const before = query.cursor === undefined ? null : decodeCursor(query.cursor);
            const rows = await listRevisions(ctx.db, accountId, workflowId, { limit: query.limit + 1, before });
            if (rows === null) {
                throw workflowNotFound(workflowId);
            }

            const items = rows.slice(0, query.limit);
            const last = items[items.length - 1];
            return { items, next: rows.length > query.limit && last ? encodeCursor(last.revision) : null };
        },
        get,
        async restore(accountId, workflowId, revision, ifRevision) {
            const { name, graph } = await get(accountId, workflowId, revision);
            return await workflows.update(accountId, workflowId, { name, graph }, ifRevision);
        }
    };
};
