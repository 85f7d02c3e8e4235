// The account's runs across its workflows, newest first: what `flowctl runs list` shows without a
// workflow. Kept apart from runs.ts (the worker's statements): this is a read of finished figures only.
import type { Queryable } from './db.js';
import { afterKeyset, KEYSET_ORDER, keysetParams, type Page, type PageRequest, toPage } from './keyset.js';
import { prepared } from './prepared.js';

export interface RecentRun {
    id: string;
    workflowId: string;
    workflowName: string;
    status: string;
    retryOf: string | null;
    triggerType: 'manual' | 'schedule' | 'webhook';
    createdAt: Date;
    startedAt: Date | null;
    completedAt: Date | null;
    emailsSent: number | null;
}

interface RecentRunRow {
    id: string;
    workflow_id: string;
    workflow_name: string;
    status: string;
    retry_of: string | null;
    trigger_type: 'manual' | 'schedule' | 'webhook';
    created_at: Date;
    started_at: Date | null;
    completed_at: Date | null;
    emails_sent: number | null;
    keyset_at: string;
}

const toRecent = (row: RecentRunRow): RecentRun => ({
    id: row.id,
    workflowId: row.workflow_id,
    workflowName: row.workflow_name,
    status: row.status,
    retryOf: row.retry_of,
    triggerType: row.trigger_type,
    createdAt: row.created_at,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    emailsSent: row.emails_sent
});

/** One page of the account's runs, newest first (keyset on created_at, id). */
export const listRecentRuns = async (db: Queryable, accountId: string, page: PageRequest): Promise<Page<RecentRun>> => {
    const rows = await prepared<RecentRunRow>(
        db,
        'flowctl_recentRuns_list',
        `SELECT r.id, r.workflow_id, w.name AS workflow_name, r.status, r.retry_of, r.trigger_type, r.created_at, r.started_at, r.completed_at,
                (r.result ->> 'emailsSent')::integer AS emails_sent,
                (extract(epoch FROM r.created_at) * 1000000)::bigint::text AS keyset_at
         FROM (SELECT * FROM runs WHERE account_id = $1 AND ${afterKeyset('$2', '$3')} ${KEYSET_ORDER} LIMIT $4) r
         JOIN workflows w ON w.id = r.workflow_id
         ORDER BY r.created_at DESC, r.id DESC`,
        [accountId, ...keysetParams(page)]
    );
    return toPage(rows, page.limit, toRecent);
};
