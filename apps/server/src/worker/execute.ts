import { errorMessage, executeRun, type Graph, type NodeState, type RunOutcome } from '@flowctl/engine';
import type { Logger } from 'pino';

import type { Mailer } from '../mail/mailer.js';
import type { Db } from '../store/db.js';
import { WEBHOOK_JOB } from '../store/queue.js';
import { type ClaimedRunRow, type Finish, type Finished, handBackRun, loadNodeStates, type NodeRow, saveNodeStates } from '../store/runs.js';
import type { Lease } from './lease.js';
import type { RunMetrics } from './metrics.js';
import { NodeWriter } from './node-writer.js';
import { createPorts, type RunDeps } from './ports.js';
import type { RunQueue, StopReason } from './queue.js';
import { toNodeStates } from './summary.js';

/** A run whose worker died this many times is failed rather than tried again. */
export const MAX_TAKEOVERS = 3;

/** How often a running OUTPUT node's e-mail count is refreshed at most (plus every PROGRESS_EVERY e-mails). */
const PROGRESS_EVERY = 100;

export interface WorkerEnv {
    db: Db;
    mailer: Mailer;
    /** E-mails one run has in flight at most (SMTP_CONNECTIONS). */
    mailConcurrency: number;
    log: Logger;
    queue: RunQueue;
    deps: RunDeps;
    metrics: RunMetrics;
    leaseMs: number;
    /** Once true, runs are handed back at their next element boundary and no new ones start. */
    readonly stopping: boolean;
}

/** How a run's execution ended: its terminal state to write (with the next claim), or neither. */
export type RunEnd = Finish | 'handed-back' | 'lost';

const EMPTY_RESULT = { totalRows: 0, filteredOut: 0, emailsSent: 0 };

const nodeTypes = (graph: Graph): Map<string, string> =>
    new Map((Array.isArray(graph?.nodes) ? graph.nodes : []).map((node) => [node.id, node.type]));

/** Ends a run without executing it, e.g. after too many takeovers; nodes left RUNNING fail with `why`. */
const endUnexecuted = async (env: WorkerEnv, run: ClaimedRunRow, lease: Lease, status: 'FAILED' | 'CANCELLED', error: string | null, why: string) => {
    const nodes: NodeRow[] = (await loadNodeStates(env.db, run.id))
        .filter((row) => row.status === 'RUNNING' || row.status === 'PENDING')
        .map((row) => ({ ...row, status: 'FAILED', error: why, completed_at: new Date().toISOString(), output: null }));
    return { runId: run.id, workflowId: run.workflow_id, token: lease.token, status, result: EMPTY_RESULT, error, nodes } satisfies Finish;
};

/** After the terminal state was written: the webhook, the figures, the log line. */
export const reportFinished = (env: WorkerEnv, finish: Finish, finished: Finished): void => {
    if (finished.webhookJobId) {
        env.queue.announce(finished.webhookJobId, WEBHOOK_JOB);
    }

    env.metrics.finished.inc({ status: finish.status });
    env.log.info({ runId: finish.runId, workflowId: finish.workflowId, status: finish.status, result: finish.result }, 'run finished');
};

/** The run's own error line: why it could not start, or which node failed. */
const runError = (outcome: RunOutcome): string | null => {
    if (outcome.error) {
        return outcome.error;
    }

    const failed = outcome.nodes.find((node) => node.status === 'FAILED');
    return outcome.status === 'FAILED' && failed ? `node '${failed.nodeId}' failed: ${failed.error}` : null;
};

/**
 * Executes one claimed run to its end, or until it is handed back or its lease is lost. The
 * caller writes the terminal state it returns (together with claiming the next run).
 */
export const runOne = async (env: WorkerEnv, run: ClaimedRunRow, lease: Lease): Promise<RunEnd> => {
    const log = env.log.child({ runId: run.id, workflowId: run.workflow_id });
    const resumed = run.previous_status === 'RUNNING';
    if (resumed && run.takeovers >= MAX_TAKEOVERS) {
        log.error({ takeovers: run.takeovers }, 'run failed: its worker stopped too often');
        const message = `the run was interrupted ${run.takeovers} times (its worker stopped while running it), so it is not tried again`;
        return endUnexecuted(env, run, lease, 'FAILED', message, 'interrupted: the worker running this node stopped');
    }

    if (run.cancel_requested_at) {
        return endUnexecuted(env, run, lease, 'CANCELLED', null, 'run cancelled');
    }

    const graph = run.graph as Graph;
    const resume: NodeState[] | undefined = resumed ? toNodeStates(await loadNodeStates(env.db, run.id), nodeTypes(graph)) : undefined;
    if (resumed) {
        log.warn({ takeovers: run.takeovers, kept: resume?.filter((s) => s.status === 'SUCCESS').map((s) => s.nodeId) }, 'resuming an interrupted run');
    }

    const controller = new AbortController();
    /** Interrupts e-mails under way: on cancel or a lost lease, but not at shutdown, which lets them finish. */
    const sends = new AbortController();
    let reason: StopReason | null = null;
    const writer = new NodeWriter(
        (rows) => saveNodeStates(env.db, run.id, run.workflow_id, lease.token, rows),
        () => lease.markLost(),
        log
    );
    const stop = (why: StopReason) => {
        if (reason === null) {
            reason = why;
            if (why !== 'cancel') {
                writer.freeze();
            }

            if (why !== 'shutdown') {
                sends.abort();
            }

            controller.abort();
        }
    };

    const onLost = () => stop('lease-lost');
    lease.lost.addEventListener('abort', onLost);
    env.queue.local.set(run.id, stop);
    if (lease.lost.aborted) {
        stop('lease-lost');
    } else if (env.stopping) {
        stop('shutdown');
    }

    if (!resumed) {
        env.metrics.pickup.observe((run.started_at.getTime() - run.created_at.getTime()) / 1000);
    }

    env.metrics.running.inc();

    const lastProgress = new Map<string, number>();
    const ports = createPorts(
        { db: env.db, mailer: env.mailer, mailConcurrency: env.mailConcurrency, deps: env.deps, log },
        {
            id: run.id,
            accountId: run.account_id,
            lease,
            resumed,
            signal: sends.signal,
            onSent(nodeId, sent) {
                env.metrics.emailsSent.inc();
                const now = performance.now();
                if (sent % PROGRESS_EVERY === 0 || now - (lastProgress.get(nodeId) ?? 0) > 250) {
                    lastProgress.set(nodeId, now);
                    writer.progress(nodeId, { emailsSent: sent });
                }
            },
            fail: () => stop('lease-lost')
        }
    );

    let outcome: RunOutcome;
    try {
        outcome = await executeRun(graph, {
            ports,
            signal: controller.signal,
            resume,
            hooks: {
                onNodeChange(state) {
                    if (reason === 'lease-lost') {
                        throw lease.lost.reason;
                    }

                    writer.change(state);
                }
            }
        });
    } catch (err) {
        if (reason === 'lease-lost') {
            await writer.settle();
            log.warn('lease lost during the run: another worker continues it');
            return 'lost';
        }

        // Not a node failure (the engine records those): a bug. Fail the run rather than retry it forever.
        log.error({ err }, 'run crashed');
        outcome = {
            status: 'FAILED',
            nodes: [],
            result: EMPTY_RESULT,
            error: `internal error while executing the run: ${errorMessage(err)}`
        };
    } finally {
        env.metrics.running.dec();
        // The last e-mail's record may still be in flight; a failure has already stopped the run.
        await ports.settle().catch(() => {});
        lease.lost.removeEventListener('abort', onLost);
        env.queue.local.delete(run.id);
    }

    if (reason === 'lease-lost') {
        await writer.settle();
        return 'lost';
    }

    if (reason === 'shutdown' && outcome.status === 'CANCELLED') {
        await handBackRun(env.db, run.id, run.workflow_id, lease.token, await writer.settle());
        log.info('run handed back at shutdown; the next worker resumes it');
        return 'handed-back';
    }

    return {
        runId: run.id,
        workflowId: run.workflow_id,
        token: lease.token,
        status: outcome.status,
        result: outcome.result,
        error: runError(outcome),
        nodes: await writer.finalRows(outcome.nodes)
    };
};
