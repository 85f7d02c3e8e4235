import { type PortContext, type Ports, suppressionKey } from '@flowctl/engine';

import type { RetryRow } from '../store/deliveries.js';

/** Rows per question to the suppression list, as the OUTPUT node asks. */
const CHUNK = 500;

/**
 * For a retry that sends stored e-mails again (resendFailed): whether the row at `position` of a
 * node's rows is on the suppression list now (unsubscribed or bounced since, often by that very
 * failure), asked once per chunk of rows right before they are sent. Such a row is not sent again.
 */
export const retrySuppression = (ports: Ports, nodeId: string, rows: RetryRow[], ctx: PortContext) => {
    let chunk = -1;
    let listed: Promise<ReadonlySet<number>> = Promise.resolve(new Set());
    return async (position: number): Promise<boolean> => {
        if (!ports.suppressed) {
            return false;
        }

        if (Math.floor(position / CHUNK) !== chunk) {
            chunk = Math.floor(position / CHUNK);
            const slice = rows.slice(chunk * CHUNK, (chunk + 1) * CHUNK);
            listed = ports.suppressed(nodeId, slice.map((row) => ({ index: row.element_index, address: suppressionKey(row.content.to) })), ctx);
        }

        return (await listed).has(rows[position]!.element_index);
    };
};
