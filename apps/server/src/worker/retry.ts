import { errorMessage, type ExecuteOptions, type Graph, type NodeState, type RunOutcome, type RunResult } from '@flowctl/engine';

import type { RetryRow } from '../store/deliveries.js';
import { retrySuppression } from './retry-suppressed.js';

const LISTED_FAILURES = 10;

/**
 * A retry run (POST …/runs/{runId}/retry): instead of executing the graph again, it sends the e-mails
 * that failed in the retried run, exactly as they were rendered then, under the same element indexes.
 * Its OUTPUT nodes report what they sent, and as `unknownOutcome` how many rows they left out because
 * a copy with an unknown outcome may have arrived (`unknown`, by node), with those whose outcome became
 * unknown as this run sent them (no failures either); every other node is SKIPPED. Same
 * contract as executeRun, so the worker treats it like any run (leases, cancel, hand-back, watchdog,
 * delivery records).
 */
export const resendFailed = async (graph: Graph, rows: RetryRow[], unknown: Map<string, number>, options: ExecuteOptions): Promise<RunOutcome> => {
    const { ports, signal } = options;
    const notify = async (state: NodeState) => options.hooks?.onNodeChange?.({ ...state });
    const byNode = new Map<string, RetryRow[]>();
    for (const row of rows) {
        byNode.set(row.node_id, [...(byNode.get(row.node_id) ?? []), row]);
    }

    const leftOutTotal = [...unknown.values()].reduce((sum, n) => sum + n, 0);
    const result: RunResult = { totalRows: 0, filteredOut: 0, emailsSent: 0, ...(leftOutTotal > 0 ? { unknownOutcome: leftOutTotal } : {}) };
    const leftOut = (nodeId: string, more = 0) => {
        const count = (unknown.get(nodeId) ?? 0) + more;
        return count > 0 ? { unknownOutcome: count } : {};
    };
    const states: NodeState[] = graph.nodes.map((node) => ({
        nodeId: node.id,
        type: node.type,
        status: byNode.has(node.id) ? 'PENDING' : 'SKIPPED',
        error: null,
        startedAt: null,
        completedAt: null,
        // A node with nothing to send says so when it left rows out: the user would look for them.
        output: !byNode.has(node.id) && unknown.has(node.id) ? { emailsSent: 0, ...leftOut(node.id) } : null
    }));
    let cancelled = false;
    for (const state of states) {
        const items = byNode.get(state.nodeId);
        if (!items) {
            await notify(state);
            continue;
        }

        if (cancelled || signal?.aborted) {
            cancelled = true;
            state.status = 'SKIPPED';
            await notify(state);
            continue;
        }

        Object.assign(state, { status: 'RUNNING', startedAt: new Date() });
        await notify(state);
        let sent = 0;
        /** Sent by this run, and whose outcome became unknown (see Ports.sendMail). */
        let maybe = 0;
        const failures: string[] = [];
        const ctx = { nodeId: state.nodeId, signal: signal ?? new AbortController().signal };
        const isSuppressed = retrySuppression(ports, state.nodeId, items, ctx);
        let suppressed = 0;
        for (const [position, row] of items.entries()) {
            if (signal?.aborted) {
                cancelled = true;
                break;
            }

            try {
                // Suppressed since (unsubscribed, or bounced by the very failure retried): not sent again.
                if (await isSuppressed(position)) {
                    suppressed++;
                    result.suppressed = (result.suppressed ?? 0) + 1;
                    continue;
                }

                const answer = await ports.sendMail(row.content, { nodeId: row.node_id, index: row.element_index }, { nodeId: row.node_id, signal: signal ?? new AbortController().signal });
                if (answer === 'unknown') {
                    maybe++;
                    result.unknownOutcome = (result.unknownOutcome ?? 0) + 1;
                    continue;
                }

                sent++;
                result.emailsSent++;
            } catch (err) {
                if (signal?.aborted) {
                    cancelled = true;
                    break;
                }

                failures.push(`#${row.element_index}: ${errorMessage(err)}`);
            }
        }

        const error = cancelled
            ? `run cancelled after ${sent} of ${items.length} e-mails retried`
            : failures.length > 0
              ? `${failures.length} of ${items.length} retried e-mails failed again: ${failures.slice(0, LISTED_FAILURES).join('; ')}${failures.length > LISTED_FAILURES ? `; and ${failures.length - LISTED_FAILURES} more` : ''}${maybe > 0 ? `. ${maybe} more may have arrived and are not counted as failed (a copy went out but its answer was never read)` : ''}`
              : null;
        Object.assign(state, { status: error ? 'FAILED' : 'SUCCESS', error, completedAt: new Date(), output: { emailsSent: sent, ...leftOut(state.nodeId, maybe), ...(suppressed > 0 ? { suppressed } : {}) } });
        await notify(state);
    }

    const failed = states.some((state) => state.status === 'FAILED');
    return { status: cancelled ? 'CANCELLED' : failed ? 'FAILED' : 'SUCCESS', nodes: states, result };
};
