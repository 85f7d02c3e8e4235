import Boom from '@hapi/boom';
import { compileFilter, compileTemplate, type DataSourceData, type FilterData, type FilterPredicate, type GraphNode, type Row } from '@flowctl/engine';

import type { Queryable } from '../store/db.js';
import { getStoredNode } from '../store/node-outputs.js';
import { createRecomputeTurns, type RecomputeTurns } from './recompute-turns.js';

// A page of one node's output. Outputs are not stored whole (a run over a million rows would need
// the store to hold them, once per node): a DATA_SOURCE's rows are read again from its upload and a
// FILTER's items found again by passing those rows through its filters, skipping `offset` matches,
// so a page costs memory for the page only. Other nodes' outputs are stored when small; of a large
// one, only the first elements the run detail shows are kept.

export interface NodeOutputPage {
    runId: string;
    nodeId: string;
    status: string;
    offset: number;
    limit: number;
    /** Length of the output's longest array: page until offset reaches it. */
    total: number;
    /** Every key of the node's output, arrays cut to [offset, offset + limit); null before it has one. */
    output: Record<string, unknown> | null;
}

/** Where a DATA_SOURCE's rows are read again. */
export interface RowSources {
    uploads: { iterateUploadRows(accountId: string, uploadId: string): Promise<AsyncIterable<Row>> };
    google: { readDriveRows(accountId: string, fileId: string, sheet?: string): Promise<Row[]> };
}

interface ArraySummary {
    count: number;
    first: unknown[];
}

const isArraySummary = (value: unknown): value is ArraySummary =>
    typeof value === 'object' && value !== null && typeof (value as ArraySummary).count === 'number' && Array.isArray((value as ArraySummary).first);

/**
 * Pages read again at once in the process, one per account (see recompute-turns.ts). Each reads the
 * whole upload up to its offset and passes it through the filters, seconds of CPU for a large one;
 * without a bound, one account asking for many at once slowed every other account's requests and runs.
 */
const RECOMPUTES = 2;
/** Accounts whose page waits for a turn; more are answered 503. Each waits for at most one page. */
const RECOMPUTES_WAITING = 100;

/** The array output of each recomputed node type. */
const RECOMPUTED_KEY: Record<string, string> = { DATA_SOURCE: 'rows', FILTER: 'items' };

const slicePage = (output: Record<string, unknown>, offset: number, limit: number) => {
    const page: Record<string, unknown> = {};
    let total = 0;
    for (const [key, value] of Object.entries(output)) {
        if (Array.isArray(value)) {
            total = Math.max(total, value.length);
            page[key] = value.slice(offset, offset + limit);
        } else {
            page[key] = value;
        }
    }

    return { page, total };
};

/** The elements a chain of FILTERs ends with: a base (rows of a DATA_SOURCE, or a kept array) and predicates. */
interface Lineage {
    base: { kind: 'source'; node: GraphNode } | { kind: 'kept'; elements: unknown[] };
    filters: FilterPredicate[];
}

export const createNodeOutputReader = (db: Queryable, sources: RowSources, turns: RecomputeTurns = createRecomputeTurns(RECOMPUTES, RECOMPUTES_WAITING)) => {
    const notKept = (nodeId: string, count: number, kept: number) =>
        Boom.conflict(
            `The output of node '${nodeId}' (${count} elements) was too large to keep whole; only its first ${kept} elements are kept (offset 0, limit ${Math.max(kept, 1)}). Have an OUTPUT node send it, or make it smaller.`
        );

    /** Follows a FILTER's `source` back to a DATA_SOURCE, or to an array output that was kept. */
    const lineage = async (accountId: string, runId: string, byId: Map<string, GraphNode>, start: GraphNode): Promise<Lineage> => {
        const filters: FilterPredicate[] = [];
        let node = start;
        for (;;) {
            if (node.type === 'DATA_SOURCE') {
                return { base: { kind: 'source', node }, filters };
            }

            const data = node.data as FilterData;
            filters.unshift(compileFilter(data.expr));
            const ref = compileTemplate(data.source.trim()).whole;
            const upstream = ref && 'nodeId' in ref ? byId.get(ref.nodeId) : undefined;
            if (!ref || !('nodeId' in ref) || !upstream) {
                throw Boom.conflict(`The source of node '${node.id}' is not one reference to a node's output, so its items cannot be read again`);
            }

            if (upstream.type === 'FILTER' || upstream.type === 'DATA_SOURCE') {
                node = upstream;
                continue;
            }

            const stored = await getStoredNode(db, accountId, runId, upstream.id);
            const elements = (stored?.output as Record<string, unknown> | null)?.[ref.output];
            if (!Array.isArray(elements)) {
                const summary = (stored?.summary as Record<string, unknown> | null)?.[ref.output];
                throw notKept(upstream.id, isArraySummary(summary) ? summary.count : 0, 0);
            }

            return { base: { kind: 'kept', elements }, filters };
        }
    };

    async function* elementsOf(accountId: string, base: Lineage['base']): AsyncGenerator<unknown> {
        if (base.kind === 'kept') {
            yield* base.elements;
            return;
        }

        const data = base.node.data as DataSourceData;
        if (data.driveFileId) {
            // A Drive file is read again as it is now: it may have changed since the run.
            yield* await sources.google.readDriveRows(accountId, data.driveFileId, data.sheet);
            return;
        }

        if (!data.uploadId) {
            return;
        }

        try {
            yield* await sources.uploads.iterateUploadRows(accountId, data.uploadId);
        } catch (err) {
            if ((err as Boom.Boom).output?.statusCode === 404) {
                throw Boom.conflict(`The upload '${data.uploadId}' this run read was deleted, so its rows cannot be shown again`);
            }

            throw err;
        }
    }

    /** The matches of the lineage from index `offset`, at most `limit` of them. */
    const recompute = async (accountId: string, line: Lineage, offset: number, limit: number, signal?: AbortSignal): Promise<unknown[]> => {
        const end = await turns.take(accountId, signal);
        try {
            const page: unknown[] = [];
            let matched = 0;
            for await (const element of elementsOf(accountId, line.base)) {
                // The asker left: the rest of the reading would be for no one.
                signal?.throwIfAborted();
                if (!line.filters.every((matches) => matches(element))) {
                    continue;
                }

                if (matched++ >= offset) {
                    page.push(element);
                    if (page.length >= limit) {
                        break;
                    }
                }
            }

            return page;
        } finally {
            end();
        }
    };

    return async (accountId: string, runId: string, nodeId: string, offset: number, limit: number, signal?: AbortSignal): Promise<NodeOutputPage> => {
        const row = await getStoredNode(db, accountId, runId, nodeId);
        if (!row) {
            throw Boom.notFound(`Run '${runId}' not found`);
        }

        const nodes = ((row.graph as { nodes?: GraphNode[] } | null)?.nodes ?? []).filter((node) => typeof node?.id === 'string');
        const node = nodes.find((candidate) => candidate.id === nodeId);
        if (!node) {
            throw Boom.notFound(`Run '${runId}' has no node '${nodeId}'`);
        }

        const base = { runId, nodeId, status: row.status ?? 'PENDING', offset, limit };
        if (row.output !== null && typeof row.output === 'object') {
            const { page, total } = slicePage(row.output as Record<string, unknown>, offset, limit);
            return { ...base, total, output: page };
        }

        const summary = row.summary as Record<string, unknown> | null;
        if (summary === null || typeof summary !== 'object') {
            return { ...base, total: 0, output: null };
        }

        // Every value of the summary as it is, but its arrays: those are paged.
        const output: Record<string, unknown> = {};
        let total = 0;
        for (const [key, value] of Object.entries(summary)) {
            if (!isArraySummary(value)) {
                output[key] = value;
                continue;
            }

            total = Math.max(total, value.count);
            // The page lies within the first elements the summary holds (all of them, for a short output).
            if (Math.min(offset + limit, value.count) <= value.first.length || offset >= value.count) {
                output[key] = value.first.slice(offset, offset + limit);
            } else if (RECOMPUTED_KEY[node.type] === key && row.status === 'SUCCESS') {
                output[key] = await recompute(accountId, await lineage(accountId, runId, new Map(nodes.map((n) => [n.id, n])), node), offset, limit, signal);
            } else {
                throw notKept(nodeId, value.count, value.first.length);
            }
        }

        return { ...base, total, output };
    };
};
