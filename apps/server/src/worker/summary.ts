import { type NodeOutput, type NodeState, toStorableText } from '@flowctl/engine';

import type { NodeRow } from '../store/runs.js';

/** How many elements of each array output the run detail shows. */
export const SUMMARY_FIRST = 5;

export interface ArraySummary {
    count: number;
    first: unknown[];
}

/**
 * The run detail's bounded view of an output: each array becomes `{count, first}`, other values are
 * kept. The whole output is paged through GET …/nodes/:nodeId/output.
 */
export const summarize = (output: NodeOutput | null): Record<string, unknown> | null => {
    if (output === null || typeof output !== 'object') {
        return null;
    }

    const summary: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(output)) {
        summary[key] = Array.isArray(value) ? ({ count: value.length, first: value.slice(0, SUMMARY_FIRST) } satisfies ArraySummary) : value;
    }

    return summary;
};

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export const toNodeRow = (state: NodeState): NodeRow => ({
    node_id: state.nodeId,
    status: state.status,
    // Errors may quote what a node received (a model's reply): it must not make the write fail.
    error: state.error === null ? null : toStorableText(state.error),
    started_at: iso(state.startedAt),
    completed_at: iso(state.completedAt),
    summary: summarize(state.output),
    output: state.output
});

/** Node states as a run interrupted earlier left them, for the engine's `resume`. */
export const toNodeStates = (rows: NodeRow[], types: Map<string, string>): NodeState[] =>
    rows
        .filter((row) => types.has(row.node_id))
        .map((row) => ({
            nodeId: row.node_id,
            type: types.get(row.node_id) as NodeState['type'],
            status: row.status as NodeState['status'],
            error: row.error,
            startedAt: row.started_at ? new Date(row.started_at) : null,
            completedAt: row.completed_at ? new Date(row.completed_at) : null,
            output: (row.output as NodeOutput | null) ?? null
        }));
