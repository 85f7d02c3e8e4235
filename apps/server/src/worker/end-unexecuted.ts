import type { Graph, RunResult } from '@flowctl/engine';

import { deliveryCounts } from '../store/deliveries.js';
import { sendingDeliveries, sentByNode, settleSending } from '../store/interruptions.js';
import { type ClaimedRunRow, type Finish, loadNodeStates, type NodeRow } from '../store/runs.js';
import { DeliveryJournal, journalKey } from './delivery-journal.js';
import type { WorkerEnv } from './execute.js';
import type { Lease } from './lease.js';

// Ending a run without (further) executing it - given up after its attempts took their worker down or
// made no progress, cancelled before it resumed, or stalled - and the figures its records give.

/** A run's result as stored: the engine's figures, plus how many e-mails may have arrived twice. */
export type RecordedResult = RunResult & { possiblyDuplicated?: number };

const rowCount = (summary: unknown): number => {
    const rows = (summary as { rows?: { count?: unknown } } | null)?.rows?.count;
    return typeof rows === 'number' ? rows : 0;
};

/** The result of a run that ends without its execution's figures: what its nodes and deliveries recorded. */
const recordedResult = async (db: WorkerEnv['db'], runId: string, nodes: NodeRow[], types: Map<string, string>): Promise<RecordedResult> => {
    const { sent, possiblyDuplicated, unknown, suppressed } = await deliveryCounts(db, runId);
    const totalRows = nodes.filter((row) => types.get(row.node_id) === 'DATA_SOURCE').reduce((sum, row) => sum + rowCount(row.summary), 0);
    // E-mails left under way by the attempt that died are no failures: they may have arrived.
    return withDuplicates(
        { totalRows, filteredOut: 0, emailsSent: sent, ...(unknown > 0 ? { unknownOutcome: unknown } : {}), ...(suppressed > 0 ? { suppressed } : {}) },
        possiblyDuplicated
    );
};

/** `possiblyDuplicated` appears only when a crash made an e-mail's fate unknown and it was sent again. */
export const withDuplicates = (result: RunResult, possiblyDuplicated: number): RecordedResult => (possiblyDuplicated > 0 ? { ...result, possiblyDuplicated } : result);

export const nodeTypes = (graph: Graph): Map<string, string> =>
    new Map((Array.isArray(graph?.nodes) ? graph.nodes : []).map((node) => [node.id, node.type]));

/**
 * Ends a run without (further) executing it: after too many takeovers, cancelled on takeover, or
 * stalled. Nodes left RUNNING or PENDING fail with `why`; the result counts what was recorded as sent.
 */
export const endUnexecuted = async (env: WorkerEnv, run: ClaimedRunRow, lease: Lease, status: 'FAILED' | 'CANCELLED', error: string | null, why: string) => {
    await settleFromNotes(env, run.id);
    const rows = await loadNodeStates(env.db, run.id);
    const types = nodeTypes(run.graph as Graph);
    // An OUTPUT node's figure comes from the same records as the run's, not from its last live count.
    const sent = await sentByNode(env.db, run.id);
    // A worker killed before its node states reached the store leaves an OUTPUT that sent e-mails
    // without a row: it ran, so it fails with its figures rather than showing SKIPPED.
    const stored = new Set(rows.map((row) => row.node_id));
    const unrecorded: NodeRow[] = [...sent.keys()]
        .filter((nodeId) => !stored.has(nodeId) && types.get(nodeId) === 'OUTPUT')
        .map((nodeId) => ({ node_id: nodeId, status: 'RUNNING', error: null, started_at: null, completed_at: null, summary: null, output: null }));
    const nodes: NodeRow[] = [...rows, ...unrecorded]
        .filter((row) => row.status === 'RUNNING' || row.status === 'PENDING')
        .map((row) => {
            const counts = sent.get(row.node_id);
            // E-mails left under way may have arrived: counted apart, as the node's retry leaves them out.
            const figures =
                types.get(row.node_id) === 'OUTPUT'
                    ? { emailsSent: counts?.sent ?? 0, ...(counts?.unknown ? { unknownOutcome: counts.unknown } : {}), ...(counts?.suppressed ? { suppressed: counts.suppressed } : {}) }
                    : null;
            return { ...row, status: 'FAILED', error: why, completed_at: new Date().toISOString(), output: figures, ...(figures ? { summary: figures } : {}) };
        });
    const result = await recordedResult(env.db, run.id, rows, types);
    return { runId: run.id, workflowId: run.workflow_id, token: lease.token, status, result, error, nodes } satisfies Finish;
};

/**
 * Before a run ends without executing further: e-mails its attempts noted as accepted are recorded
 * SENT (so its figures count them), and intents of e-mails never handed to the server are removed (a
 * retry sends them), unless an earlier copy may have arrived (see settleSending). The notes are
 * removed with the run's end; afterwards they could not tell.
 */
const settleFromNotes = async (env: WorkerEnv, runId: string): Promise<void> => {
    const rows = await sendingDeliveries(env.db, runId);
    if (rows.length === 0) {
        return;
    }

    const reader = new DeliveryJournal(env.journalDir, runId, 'settle', () => {});
    const notes = new Map<string, ReturnType<DeliveryJournal['earlier']>>();
    const accepted: typeof rows = [];
    const unsent: typeof rows = [];
    for (const row of rows) {
        if (row.attempt === null) {
            continue;
        }

        if (!notes.has(row.attempt)) {
            notes.set(row.attempt, reader.earlier(row.attempt));
        }

        const noted = notes.get(row.attempt);
        const key = journalKey(row.node_id, row.element_index);
        if (noted?.accepted.has(key)) {
            accepted.push(row);
        } else if (noted && !noted.transmitted.has(key)) {
            unsent.push(row);
        }
    }

    await settleSending(env.db, runId, accepted, unsent);
};
