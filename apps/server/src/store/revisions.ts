import type { Graph } from '@flowctl/engine';

import type { Queryable } from './db.js';
import { prepared, preparedOne } from './prepared.js';

// A workflow's revisions: written by workflows.ts in the statement that creates or changes the
// workflow, read here. Immutable: nothing updates a row; retention deletes old unused ones.

export interface RevisionEntry {
    revision: number;
    name: string;
    createdAt: Date;
}

export interface RevisionRecord extends RevisionEntry {
    graph: Graph;
}

interface RevisionRow {
    revision: number;
    name: string;
    graph: Graph;
    created_at: Date;
}

/**
 * Newest first, `limit` of them below revision `before` (null: from the newest). Null when the
 * workflow is unknown or another account's.
 */
export const listRevisions = async (
    db: Queryable,
    accountId: string,
    workflowId: string,
    page: { limit: number; before: number | null }
): Promise<RevisionEntry[] | null> => {
    // One row with null revision for a workflow with none in this page, as runs' list does.
    const rows = await prepared<Omit<RevisionRow, 'graph'> & { revision: number | null }>(
        db,
        'flowctl_revisions_list',
        `SELECT v.revision, v.name, v.created_at
         FROM workflows w LEFT JOIN LATERAL (
             SELECT revision, name, created_at FROM workflow_revisions
             WHERE workflow_id = w.id AND ($3::integer IS NULL OR revision < $3)
             ORDER BY revision DESC LIMIT $4
         ) v ON TRUE
         WHERE w.id = $1 AND w.account_id = $2`,
        [workflowId, accountId, page.before, page.limit]
    );
    if (rows.length === 0) {
        return null;
    }

    return rows.filter((row) => row.revision !== null).map((row) => ({ revision: row.revision as number, name: row.name, createdAt: row.created_at }));
};

/** Null when the workflow is unknown or another account's, or has no such revision (any more). */
export const getRevision = async (db: Queryable, accountId: string, workflowId: string, revision: number): Promise<RevisionRecord | null> => {
    const row = await preparedOne<RevisionRow>(
        db,
        'flowctl_revisions_get',
        `SELECT v.revision, v.name, v.graph, v.created_at
         FROM workflow_revisions v JOIN workflows w ON w.id = v.workflow_id
         WHERE v.workflow_id = $1 AND w.account_id = $2 AND v.revision = $3`,
        [workflowId, accountId, revision]
    );
    return row ? { revision: row.revision, name: row.name, graph: row.graph, createdAt: row.created_at } : null;
};
