import type { Queryable } from './db.js';
import { LEDGER_STATUS_SQL, RECORDED, type RecordedStatus } from './delivery-status.js';
import { prepared, preparedOne } from './prepared.js';
import { REVISION_GRAPH } from './runs.js';

// The delivery ledger's reads. Every query pages one OUTPUT node by element index, through the
// primary key (run, node, element) or, for the rarer statuses, the partial index deliveries_unsent:
// a page costs its own rows, whatever the size of the run.

export interface LedgerRow {
    element_index: number;
    recipient: string | null;
    status: RecordedStatus;
    message_id: string | null;
    error: string | null;
    attempts: number;
    at: Date;
}

const COLUMNS = `element_index, COALESCE(recipient, content->>'to') AS recipient, ${LEDGER_STATUS_SQL} AS status,
    message_id, error, attempts, sent_at AS at`;

export interface LedgerRun {
    status: string;
    graph: { nodes?: { id: string; type: string }[] };
    /** Element counts of the OUTPUT nodes that have started, by node id. */
    elements: Record<string, number> | null;
}

/** The run of the account, with what the ledger needs of it; null for another account's or none. */
export const ledgerRun = (db: Queryable, accountId: string, runId: string): Promise<LedgerRun | null> =>
    preparedOne<LedgerRun>(
        db,
        'flowctl_ledger_run',
        // The graph is the revision's the run executes (runs keep no copy since 027-revisions).
        `SELECT r.status, ${REVISION_GRAPH('r')} AS graph,
                (SELECT jsonb_object_agg(e.node_id, e.elements) FROM output_elements e WHERE e.run_id = r.id) AS elements
         FROM runs r WHERE r.id = $1 AND r.account_id = $2`,
        [runId, accountId]
    );

/** Records of one node after element `after`, in element order, optionally of one status. */
export const ledgerRecords = (db: Queryable, runId: string, nodeId: string, after: number, limit: number, status: RecordedStatus | null): Promise<LedgerRow[]> =>
    prepared<LedgerRow>(
        db,
        `flowctl_ledger_records_${status ?? 'all'}`,
        `SELECT ${COLUMNS} FROM deliveries
         WHERE run_id = $1 AND node_id = $2 AND element_index > $3 AND ${status ? RECORDED[status] : 'true'}
         ORDER BY element_index LIMIT $4`,
        [runId, nodeId, after, limit]
    );

/** Records of one node with element index in [from, to], in element order. */
export const ledgerRange = (db: Queryable, runId: string, nodeId: string, from: number, to: number): Promise<LedgerRow[]> =>
    prepared<LedgerRow>(
        db,
        'flowctl_ledger_range',
        `SELECT ${COLUMNS} FROM deliveries
         WHERE run_id = $1 AND node_id = $2 AND element_index BETWEEN $3 AND $4
         ORDER BY element_index`,
        [runId, nodeId, from, to]
    );

/**
 * Element indexes in [from, to] with no record, in order, at most `limit`: the window less the records
 * of one range of the primary key. (As NOT EXISTS, a generic plan took the run's whole deliveries
 * into a hash anti-join: test/deliveries-plan.test.ts.)
 */
export const unrecordedElements = async (db: Queryable, runId: string, nodeId: string, from: number, to: number, limit: number): Promise<number[]> => {
    const rows = await prepared<{ i: number }>(
        db,
        'flowctl_ledger_unrecorded',
        `SELECT i FROM (
             SELECT g.i FROM generate_series($3::int, $4::int) AS g(i)
             EXCEPT ALL
             SELECT element_index FROM deliveries WHERE run_id = $1 AND node_id = $2 AND element_index BETWEEN $3 AND $4
         ) AS missing
         ORDER BY i LIMIT $5`,
        [runId, nodeId, from, to, limit]
    );
    return rows.map((row) => row.i);
};

/** Records how many elements an OUTPUT node of the run has, as it starts (again). */
export const writeOutputElements = async (db: Queryable, runId: string, nodeId: string, elements: number): Promise<void> => {
    await prepared(
        db,
        'flowctl_ledger_writeElements',
        `INSERT INTO output_elements (run_id, node_id, elements) VALUES ($1, $2, $3)
         ON CONFLICT (run_id, node_id) DO UPDATE SET elements = EXCLUDED.elements`,
        [runId, nodeId, elements]
    );
};
