import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { ledgerRange, ledgerRecords, ledgerRun, type LedgerRow, unrecordedElements } from '../store/delivery-ledger.js';
import type { LedgerStatus, RecordedStatus } from '../store/delivery-status.js';

/** One element of an OUTPUT node: who it was for and what became of it. */
export interface DeliveryEntry {
    nodeId: string;
    index: number;
    /** Null while pending (not rendered yet), or when the element had no address. */
    to: string | null;
    status: LedgerStatus;
    messageId: string | null;
    error: string | null;
    /** Copies this run handed to the mail server (0: none, as for a bad address or a pending element). */
    attempts: number;
    /** When the record last changed; null while pending. */
    at: string | null;
}

export interface DeliveryPage {
    items: DeliveryEntry[];
    next: string | null;
}

export interface DeliveriesService {
    /** The run's deliveries in (OUTPUT node in graph order, element index) order; 404 for another account's run. */
    list(accountId: string, runId: string, query: { status?: LedgerStatus; limit: number; cursor?: string }): Promise<DeliveryPage>;
}

/** Where a page starts: after element `index` of the `node`-th OUTPUT node. */
interface Position {
    node: number;
    index: number;
}

/** Opaque to clients: `d<node ordinal>.<element index>`, both in base 36. */
const encodeCursor = (at: Position): string => `d${at.node.toString(36)}.${at.index.toString(36)}`;

const decodeCursor = (cursor: string, nodes: number): Position => {
    const match = /^d([0-9a-z]{1,4})\.([0-9a-z]{1,7})$/.exec(cursor);
    const at = match ? { node: Number.parseInt(match[1]!, 36), index: Number.parseInt(match[2]!, 36) } : null;
    // Seven base-36 digits reach past the integer column an element index is.
    if (!at || at.node >= nodes || at.index > 2_147_483_647) {
        throw Boom.badRequest(`Invalid cursor '${cursor.slice(0, 40)}': pass the cursor from the Link header of the previous page`);
    }

    return at;
};

const entry = (nodeId: string, row: LedgerRow): DeliveryEntry => ({
    nodeId,
    index: row.element_index,
    to: row.recipient,
    status: row.status,
    messageId: row.message_id,
    error: row.error,
    attempts: row.attempts,
    at: new Date(row.at).toISOString()
});

const pending = (nodeId: string, index: number): DeliveryEntry => ({ nodeId, index, to: null, status: 'pending', messageId: null, error: null, attempts: 0, at: null });

/** Windows of element indexes probed for pending ones: from a page's worth, growing on a mostly sent node. */
const FIRST_WINDOW = 1024;
const LARGEST_WINDOW = 256 * 1024;

export const createDeliveriesService = (ctx: Context): DeliveriesService => {
    const { db } = ctx;

    /** Elements of [after + 1, total) with no record, at most `limit`. */
    const pendingOf = async (runId: string, nodeId: string, after: number, total: number, limit: number): Promise<DeliveryEntry[]> => {
        const found: DeliveryEntry[] = [];
        let from = after + 1;
        let window = Math.max(FIRST_WINDOW, limit * 4);
        while (found.length < limit && from < total) {
            const to = Math.min(total - 1, from + window - 1);
            for (const index of await unrecordedElements(db, runId, nodeId, from, to, limit - found.length)) {
                found.push(pending(nodeId, index));
            }

            from = to + 1;
            window = Math.min(LARGEST_WINDOW, window * 4);
        }

        return found;
    };

    /** Every element after `after`, recorded or pending, at most `limit`: one range of the primary key. */
    const allOf = async (runId: string, nodeId: string, after: number, total: number | undefined, limit: number): Promise<DeliveryEntry[]> => {
        if (total === undefined || after + 1 >= total) {
            // No count (the node has not started, or a retry resending some elements): its records alone.
            return (await ledgerRecords(db, runId, nodeId, after, limit, null)).map((row) => entry(nodeId, row));
        }

        const to = Math.min(total - 1, after + limit);
        const recorded = new Map((await ledgerRange(db, runId, nodeId, after + 1, to)).map((row) => [row.element_index, row]));
        const items: DeliveryEntry[] = [];
        for (let index = after + 1; index <= to; index++) {
            const row = recorded.get(index);
            items.push(row ? entry(nodeId, row) : pending(nodeId, index));
        }

        return items;
    };

    return {
        async list(accountId, runId, query) {
            const run = await ledgerRun(db, accountId, runId);
            if (!run) {
                throw Boom.notFound(`Run '${runId}' not found`);
            }

            const outputs = (Array.isArray(run.graph?.nodes) ? run.graph.nodes : []).filter((node) => node.type === 'OUTPUT').map((node) => node.id);
            const start = query.cursor === undefined ? { node: 0, index: -1 } : decodeCursor(query.cursor, outputs.length);
            // One past the page: says whether there is a next one.
            const want = query.limit + 1;
            const items: DeliveryEntry[] = [];
            for (let k = start.node; k < outputs.length && items.length < want; k++) {
                const nodeId = outputs[k]!;
                const after = k === start.node ? start.index : -1;
                const total = run.elements?.[nodeId];
                const need = want - items.length;
                const status = query.status;
                const page =
                    status === undefined
                        ? await allOf(runId, nodeId, after, total, need)
                        : status === 'pending'
                          ? total === undefined
                              ? []
                              : await pendingOf(runId, nodeId, after, total, need)
                          : (await ledgerRecords(db, runId, nodeId, after, need, status as RecordedStatus)).map((row) => entry(nodeId, row));
                items.push(...page);
            }

            const more = items.length > query.limit;
            const shown = items.slice(0, query.limit);
            const last = shown.at(-1);
            return { items: shown, next: more && last ? encodeCursor({ node: outputs.indexOf(last.nodeId), index: last.index }) : null };
        }
    };
};
