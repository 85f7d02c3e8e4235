import type { Graph } from '@flowctl/engine';

import type { Queryable } from './db.js';
import { afterKeyset, KEYSET_COLUMN, KEYSET_ORDER, keysetParams, type Page, type PageRequest, toPage } from './keyset.js';
import { prepared } from './prepared.js';

export interface WorkflowRecord {
    id: string;
    accountId: string;
    name: string;
    graph: Graph;
    webhookUrl: string | null;
    createdAt: Date;
    updatedAt: Date;
}

export interface WorkflowChanges {
    name?: string;
    graph?: Graph;
    /** Null removes it. */
    webhookUrl?: string | null;
}

interface WorkflowRow {
    id: string;
    account_id: string;
    name: string;
    graph: Graph;
    webhook_url: string | null;
    created_at: Date;
    updated_at: Date;
}

// Named, not `*`: a statement prepared by a running process must keep its result type when a later
// migration adds columns. Statements are prepared (see prepared.ts): on PGlite that took
// GET /api/workflows/{id} from ~500 to ~1,200 requests/s.
const COLUMNS = 'id, account_id, name, graph, webhook_url, created_at, updated_at';

const toRecord = (row: WorkflowRow): WorkflowRecord => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    graph: row.graph,
    webhookUrl: row.webhook_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at
});

/** Workflows by account. A workflow's runs go with it: runs.workflow_id cascades on delete. */
export interface WorkflowsStore {
    insert(workflow: Omit<WorkflowRecord, 'createdAt' | 'updatedAt'>): Promise<WorkflowRecord>;
    find(accountId: string, workflowId: string): Promise<WorkflowRecord | null>;
    /** Newest first, one page. */
    list(accountId: string, page: PageRequest): Promise<Page<WorkflowRecord>>;
    /** Null when there is no such workflow for this account. */
    update(accountId: string, workflowId: string, changes: WorkflowChanges): Promise<WorkflowRecord | null>;
    delete(accountId: string, workflowId: string): Promise<boolean>;
    /** Workflows of the account with a DATA_SOURCE node reading this upload. */
    usingUpload(accountId: string, uploadId: string): Promise<{ id: string; name: string }[]>;
}

export const workflowsStore = (db: Queryable): WorkflowsStore => ({
    async insert(workflow) {
        const [row] = await prepared<WorkflowRow>(
            db,
            'flowctl_workflows_insert',
            `INSERT INTO workflows (id, account_id, name, graph, webhook_url)
             VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING ${COLUMNS}`,
            [workflow.id, workflow.accountId, workflow.name, JSON.stringify(workflow.graph), workflow.webhookUrl]
        );
        return toRecord(row!);
    },
    async find(accountId, workflowId) {
        const [row] = await prepared<WorkflowRow>(db, 'flowctl_workflows_find', `SELECT ${COLUMNS} FROM workflows WHERE id = $1 AND account_id = $2`, [workflowId, accountId]);
        return row ? toRecord(row) : null;
    },
    async list(accountId, page) {
        const rows = await prepared<WorkflowRow & { keyset_at: string }>(
            db,
            'flowctl_workflows_listPage',
            `SELECT ${COLUMNS}, ${KEYSET_COLUMN} FROM workflows WHERE account_id = $1 AND ${afterKeyset('$2', '$3')} ${KEYSET_ORDER} LIMIT $4`,
            [accountId, ...keysetParams(page)]
        );
        return toPage(rows, page.limit, toRecord);
    },
    async update(accountId, workflowId, changes) {
        // One statement whatever changed: a key left out keeps its column ($n IS NULL means "not given").
        const [row] = await prepared<WorkflowRow>(
            db,
            'flowctl_workflows_update',
            `UPDATE workflows SET
                name = COALESCE($3, name),
                graph = COALESCE($4::jsonb, graph),
                webhook_url = CASE WHEN $5::boolean THEN $6 ELSE webhook_url END,
                updated_at = now()
             WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
            [
                workflowId,
                accountId,
                changes.name ?? null,
                changes.graph === undefined ? null : JSON.stringify(changes.graph),
                changes.webhookUrl !== undefined,
                changes.webhookUrl ?? null
            ]
        );
        return row ? toRecord(row) : null;
    },
    async delete(accountId, workflowId) {
        const rows = await prepared(db, 'flowctl_workflows_delete', 'DELETE FROM workflows WHERE id = $1 AND account_id = $2 RETURNING id', [workflowId, accountId]);
        return rows.length > 0;
    },
    async usingUpload(accountId, uploadId) {
        return await prepared<{ id: string; name: string }>(
            db,
            'flowctl_workflows_usingUpload',
            `SELECT id, name FROM workflows WHERE account_id = $1 AND graph->'nodes' @> $2::jsonb ORDER BY created_at, id`,
            [accountId, JSON.stringify([{ data: { uploadId } }])]
        );
    }
});
