import type { Graph } from '@flowctl/engine';

import type { Queryable } from './db.js';
import { type IdempotencyClaim, KEYED_CONFLICT } from './idempotency.js';
import { afterKeyset, KEYSET_COLUMN, KEYSET_ORDER, keysetParams, type Page, type PageRequest, toPage } from './keyset.js';
import { prepared } from './prepared.js';

export interface WorkflowRecord {
    id: string;
    accountId: string;
    name: string;
    graph: Graph;
    webhookUrl: string | null;
    /** The current revision: 1 at creation, one more for each change of name or graph. */
    revision: number;
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
    revision: number;
    created_at: Date;
    updated_at: Date;
}

// Named, not `*`: a statement prepared by a running process must keep its result type when a later
// migration adds columns. Statements are prepared (see prepared.ts): on PGlite that took
// GET /api/workflows/{id} from ~500 to ~1,200 requests/s.
const COLUMNS = 'id, account_id, name, graph, webhook_url, revision, created_at, updated_at';

const toRecord = (row: WorkflowRow): WorkflowRecord => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    graph: row.graph,
    webhookUrl: row.webhook_url,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at
});

/** Workflows by account. A workflow's runs and revisions go with it: both cascade on delete. */
export interface WorkflowsStore {
    /**
     * The workflow and its revision 1, in one statement. With the request's Idempotency-Key: null when
     * a workflow of the account already carries it (services/idempotency.ts insertKeyed).
     */
    insert(workflow: Omit<WorkflowRecord, 'createdAt' | 'updatedAt' | 'revision'>, claim?: IdempotencyClaim | null): Promise<WorkflowRecord | null>;
    find(accountId: string, workflowId: string): Promise<WorkflowRecord | null>;
    /** Newest first, one page. */
    list(accountId: string, page: PageRequest): Promise<Page<WorkflowRecord>>;
    /**
     * A change of name or graph makes the next revision, in the same statement; one that changes
     * neither makes none. With `ifRevision`, only while that is still the current revision. Null
     * when there is no such workflow for this account, or it is at another revision.
     */
    update(accountId: string, workflowId: string, changes: WorkflowChanges, ifRevision?: number): Promise<WorkflowRecord | null>;
    delete(accountId: string, workflowId: string): Promise<boolean>;
    /** Workflows of the account with a DATA_SOURCE node reading this upload. */
    usingUpload(accountId: string, uploadId: string): Promise<{ id: string; name: string }[]>;
}

export const workflowsStore = (db: Queryable): WorkflowsStore => ({
    async insert(workflow, claim = null) {
        const [row] = await prepared<WorkflowRow>(
            db,
            'flowctl_workflows_insert',
            `WITH w AS (
                 INSERT INTO workflows (id, account_id, name, graph, webhook_url, revision, idempotency_key, idempotency_fingerprint)
                 VALUES ($1, $2, $3, $4::jsonb, $5, 1, $6, $7) ${KEYED_CONFLICT} RETURNING ${COLUMNS}
             ), v AS (
                 INSERT INTO workflow_revisions (workflow_id, revision, name, graph, created_at) SELECT id, revision, name, graph, created_at FROM w
             )
             SELECT ${COLUMNS} FROM w`,
            [workflow.id, workflow.accountId, workflow.name, JSON.stringify(workflow.graph), workflow.webhookUrl, claim?.key ?? null, claim?.fingerprint ?? null]
        );
        return row ? toRecord(row) : null;
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
    async update(accountId, workflowId, changes, ifRevision) {
        // One statement whatever changed: a key left out keeps its column ($n IS NULL means "not given").
        // The revision check and the write are one: of two writers holding revision n, the second
        // finds n + 1 after waiting for the first's row lock, and changes nothing. jsonb compares by
        // value (key order aside), so a graph sent back unchanged makes no revision; its row is
        // already there, and the insert does nothing.
        const [row] = await prepared<WorkflowRow>(
            db,
            'flowctl_workflows_update',
            `WITH w AS (
                 UPDATE workflows SET
                    name = COALESCE($3, name),
                    graph = COALESCE($4::jsonb, graph),
                    webhook_url = CASE WHEN $5::boolean THEN $6 ELSE webhook_url END,
                    revision = revision + CASE WHEN COALESCE($3, name) <> name OR COALESCE($4::jsonb, graph) <> graph THEN 1 ELSE 0 END,
                    updated_at = CASE WHEN COALESCE($3, name) <> name OR COALESCE($4::jsonb, graph) <> graph OR $5::boolean THEN now() ELSE updated_at END
                 WHERE id = $1 AND account_id = $2 AND ($7::integer IS NULL OR revision = $7) RETURNING ${COLUMNS}
             ), v AS (
                 INSERT INTO workflow_revisions (workflow_id, revision, name, graph, created_at)
                 SELECT id, revision, name, graph, updated_at FROM w ON CONFLICT (workflow_id, revision) DO NOTHING
             )
             SELECT ${COLUMNS} FROM w`,
            [
                workflowId,
                accountId,
                changes.name ?? null,
                changes.graph === undefined ? null : JSON.stringify(changes.graph),
                changes.webhookUrl !== undefined,
                changes.webhookUrl ?? null,
                ifRevision ?? null
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
