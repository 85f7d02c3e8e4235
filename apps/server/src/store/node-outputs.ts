import type { Queryable } from './db.js';
import { preparedOne } from './prepared.js';
import { REVISION_GRAPH } from './runs.js';

export interface StoredNodeRow {
    /** The graph of the run's revision: what its nodes were when it was enqueued. */
    graph: unknown;
    /** Null when the node has no state yet. */
    status: string | null;
    summary: unknown;
    /** Kept only when small and not recomputable (see node-summary.ts); bounded by KEPT_OUTPUT_BYTES. */
    output: unknown;
}

/** One node's stored state with the graph of the run's revision. Null for an unknown or foreign run. */
export const getStoredNode = (db: Queryable, accountId: string, runId: string, nodeId: string): Promise<StoredNodeRow | null> =>
    preparedOne<StoredNodeRow>(
        db,
        'flowctl_nodeOutputs_getStoredNode',
        `SELECT ${REVISION_GRAPH('r')} AS graph, n.status, n.summary, n.output
         FROM runs r LEFT JOIN run_nodes n ON n.run_id = r.id AND n.node_id = $3
         WHERE r.id = $1 AND r.account_id = $2`,
        [runId, accountId, nodeId]
    );
