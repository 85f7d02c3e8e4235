import type { Queryable } from './db.js';
import { prepared } from './prepared.js';

// One row per e-mail the transport accepted. A row is a fact about the outside world, so it is
// written whoever holds the lease: a resumed run must skip that element either way.

export const deliveredIndexes = async (db: Queryable, runId: string, nodeId: string): Promise<Set<number>> => {
    const rows = await prepared<{ element_index: number }>(db, 'flowctl_deliveries_deliveredIndexes', 'SELECT element_index FROM deliveries WHERE run_id = $1 AND node_id = $2', [
        runId,
        nodeId
    ]);
    return new Set(rows.map((row) => row.element_index));
};

export const recordDelivery = async (db: Queryable, runId: string, nodeId: string, index: number, messageId: string | null): Promise<void> => {
    await prepared(
        db,
        'flowctl_deliveries_recordDelivery',
        `INSERT INTO deliveries (run_id, node_id, element_index, message_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (run_id, node_id, element_index) DO NOTHING`,
        [runId, nodeId, index, messageId]
    );
};
