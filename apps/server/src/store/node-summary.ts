import { type NodeOutput, type NodeState, toStorableText } from '@flowctl/engine';

import type { NodeRow } from './runs.js';

// What a node's row holds of its output (store/runs.ts writes it): a bounded summary, and the whole
// output only when it is small and not recomputable. The worker writes rows with it; a preview shows
// the same summaries without storing them.

/** How many elements of each array output the run detail shows, */
export const SUMMARY_FIRST = 5;
/** and at most this many bytes of them (as JSON): one row may be up to a megabyte. */
export const SUMMARY_FIRST_BYTES = 16 * 1024;
/**
 * An output is kept whole (for resume and paging) only up to this size as JSON. DATA_SOURCE and
 * FILTER outputs are never kept: they are recomputed from the upload and the graph snapshot.
 */
export const KEPT_OUTPUT_BYTES = 256 * 1024;

/** Node types whose outputs follow from the upload and the graph snapshot alone. */
export const RECOMPUTED = new Set(['DATA_SOURCE', 'FILTER']);

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
        summary[key] = Array.isArray(value) ? ({ count: value.length, first: firstWithin(value) } satisfies ArraySummary) : value;
    }

    return summary;
};

/** The first SUMMARY_FIRST elements, fewer when they would pass SUMMARY_FIRST_BYTES. */
const firstWithin = (array: unknown[]): unknown[] => {
    const first: unknown[] = [];
    let bytes = 0;
    for (const element of array.slice(0, SUMMARY_FIRST)) {
        bytes += JSON.stringify(element ?? null).length;
        if (bytes > SUMMARY_FIRST_BYTES) {
            break;
        }

        first.push(element);
    }

    return first;
};

/**
 * Whether `value` as JSON stays within `limit` characters, found without building the JSON and
 * stopping as soon as it is over: an output of a million rows costs no more than a small one.
 */
export const fitsWithin = (value: unknown, limit: number): boolean => {
    let left = limit;
    const walk = (v: unknown): boolean => {
        if (v === null || typeof v !== 'object') {
            left -= typeof v === 'string' ? v.length + 2 : 8;
            return left >= 0;
        }

        const entries = Array.isArray(v) ? v : Object.entries(v as Record<string, unknown>);
        left -= 2;
        if (entries.length > left) {
            return false;
        }

        for (const entry of entries) {
            if (!walk(entry)) {
                return false;
            }
        }

        return left >= 0;
    };
    return walk(value);
};

/** What is stored of a node's output: nothing for recomputed nodes and for outputs too large to keep. */
export const keptOutput = (state: NodeState): NodeOutput | null =>
    state.output === null || RECOMPUTED.has(state.type) || !fitsWithin(state.output, KEPT_OUTPUT_BYTES) ? null : state.output;

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export const toNodeRow = (state: NodeState): NodeRow => ({
    node_id: state.nodeId,
    status: state.status,
    // Errors may quote what a node received (a model's reply): it must not make the write fail.
    error: state.error === null ? null : toStorableText(state.error),
    started_at: iso(state.startedAt),
    completed_at: iso(state.completedAt),
    summary: summarize(state.output),
    output: keptOutput(state)
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
