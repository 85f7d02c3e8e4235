import type { Queryable } from './db.js';
import { afterKeyset, KEYSET_COLUMN, KEYSET_ORDER, keysetParams, type Page, type PageRequest, toPage } from './keyset.js';
import { prepared } from './prepared.js';

export type SuppressionReason = 'unsubscribed' | 'bounced' | 'complained' | 'manual';

export interface SuppressionRecord {
    email: string;
    reason: SuppressionReason;
    workflowId: string | null;
    createdAt: Date;
}

interface SuppressionRow {
    id: string;
    email: string;
    reason: SuppressionReason;
    workflow_id: string | null;
    created_at: Date;
}

/** An address to suppress: `key` as compared (suppressionKey()), `email` as given. */
export interface SuppressionEntry {
    key: string;
    email: string;
}

const toRecord = (row: SuppressionRow): SuppressionRecord => ({ email: row.email, reason: row.reason, workflowId: row.workflow_id, createdAt: row.created_at });

/**
 * Adds addresses to an account's list in one statement; an address already there keeps its first
 * reason and date. How many were new.
 */
export const addSuppressions = async (db: Queryable, accountId: string, entries: SuppressionEntry[], reason: SuppressionReason, workflowId: string | null): Promise<number> => {
    if (entries.length === 0) {
        return 0;
    }

    const rows = await prepared<{ added: number }>(
        db,
        'flowctl_suppressions_add',
        `WITH added AS (
             INSERT INTO suppressions (account_id, email_key, email, reason, workflow_id)
             SELECT $1, k, e, $4, $5 FROM unnest($2::text[], $3::text[]) AS t (k, e)
             ON CONFLICT (account_id, email_key) DO NOTHING
             RETURNING 1
         ) SELECT count(*)::int AS added FROM added`,
        [accountId, entries.map((e) => e.key), entries.map((e) => e.email), reason, workflowId]
    );
    return rows[0]?.added ?? 0;
};

/** The keys among `keys` that are on the account's list: one index lookup per key, in one statement. */
export const suppressedAmong = async (db: Queryable, accountId: string, keys: string[]): Promise<Set<string>> => {
    if (keys.length === 0) {
        return new Set();
    }

    const rows = await prepared<{ email_key: string }>(
        db,
        'flowctl_suppressions_among',
        'SELECT email_key FROM suppressions WHERE account_id = $1 AND email_key = ANY($2::text[])',
        [accountId, keys]
    );
    return new Set(rows.map((row) => row.email_key));
};

export const listSuppressions = async (db: Queryable, accountId: string, page: PageRequest): Promise<Page<SuppressionRecord>> => {
    const rows = await prepared<SuppressionRow & { keyset_at: string }>(
        db,
        'flowctl_suppressions_list',
        `SELECT id, email, reason, workflow_id, created_at, ${KEYSET_COLUMN} FROM suppressions
         WHERE account_id = $1 AND ${afterKeyset('$2', '$3')} ${KEYSET_ORDER} LIMIT $4`,
        [accountId, ...keysetParams(page)]
    );
    return toPage(rows, page.limit, toRecord);
};

/** Whether the address was on the list. */
export const removeSuppression = async (db: Queryable, accountId: string, key: string): Promise<boolean> => {
    const rows = await prepared<{ email_key: string }>(
        db,
        'flowctl_suppressions_remove',
        'DELETE FROM suppressions WHERE account_id = $1 AND email_key = $2 RETURNING email_key',
        [accountId, key]
    );
    return rows.length > 0;
};
