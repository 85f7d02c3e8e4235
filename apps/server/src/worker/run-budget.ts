import type { DataSourceData, Graph } from '@flowctl/engine';

import type { ClaimedRunRow, Finish, NodeRow } from '../store/runs.js';
import { estimateRun, overBudgetMessage, type UploadSize } from '../run-memory.js';
import type { RunDeps } from '../services/run-deps.js';

/**
 * A run whose data would not fit RUN_MEMORY_MB ends FAILED before it loads anything, with the
 * figures: its DATA_SOURCE nodes fail with the message, the others are skipped. Written as its
 * terminal state, it is never resumed to fail again. Null when the run fits. `estimated` is told
 * the estimate.
 */
export const overBudget = async (deps: RunDeps, run: ClaimedRunRow, token: string, budgetBytes: number, estimated?: (bytes: number) => void): Promise<Finish | null> => {
    const graph = run.graph as Graph;
    const nodes = Array.isArray(graph?.nodes) ? graph.nodes : [];
    const sizes = new Map<string, UploadSize | null>();
    for (const node of nodes) {
        const uploadId = node.type === 'DATA_SOURCE' ? (node.data as DataSourceData)?.uploadId : undefined;
        if (uploadId && !sizes.has(uploadId)) {
            // An upload that is gone fails its node when the run executes, with its own message.
            sizes.set(uploadId, await deps.uploadSize(run.account_id, uploadId));
        }
    }

    const estimate = estimateRun(graph, (uploadId) => sizes.get(uploadId) ?? null);
    estimated?.(estimate.bytes);
    if (estimate.bytes <= budgetBytes) {
        return null;
    }

    const error = overBudgetMessage(estimate, budgetBytes);
    const now = new Date().toISOString();
    const rows: NodeRow[] = nodes.map((node) => ({
        node_id: node.id,
        status: node.type === 'DATA_SOURCE' && sizes.get((node.data as DataSourceData)?.uploadId ?? '') ? 'FAILED' : 'SKIPPED',
        error: null,
        started_at: null,
        completed_at: null,
        summary: null,
        output: null
    }));
    for (const row of rows.filter((r) => r.status === 'FAILED')) {
        Object.assign(row, { error, started_at: now, completed_at: now });
    }

    return { runId: run.id, workflowId: run.workflow_id, token, status: 'FAILED', result: { totalRows: 0, filteredOut: 0, emailsSent: 0 }, error, nodes: rows };
};
