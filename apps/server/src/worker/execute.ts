import { setMaxListeners } from 'node:events';

import { errorMessage, type ExecuteOptions, executeRun, type Graph, type NodeState, type RunOutcome, toStorableText } from '@flowctl/engine';
import type { Logger } from 'pino';

import { randomBytes } from '../ids.js';
import type { Mailer } from '../mail/mailer.js';
import type { Db } from '../store/db.js';
import { deliveryCounts, retryableDeliveries, unknownDeliveries } from '../store/deliveries.js';
import { noteProgress, retrySource, startAttempt } from '../store/interruptions.js';
import { WEBHOOK_JOB } from '../store/queue.js';
import { type ClaimedRunRow, type Finish, type Finished, handBackRun, loadNodeStates, saveNodeStates } from '../store/runs.js';
import { DeliveryJournal, removeRunJournal } from './delivery-journal.js';
import { MAX_STRIKES, noteInterruption, WORKER_STOPPED } from './interruption.js';
import { type Lease, LeaseLost } from './lease.js';
import type { RunMetrics } from './metrics.js';
import { NodeWriter } from './node-writer.js';
import type { RunDeps } from '../services/run-deps.js';
import { createPorts, type PortsRun } from './ports.js';
import { endUnexecuted, nodeTypes, withDuplicates } from './end-unexecuted.js';
import { watchRelay } from './relay-watch.js';
import { resendFailed } from './retry.js';
import { overBudget } from './run-budget.js';
import type { RunQueue, StopReason } from '../queue/run-queue.js';
import { toNodeStates } from '../store/node-summary.js';
import { judgeTakeover, stallLimitMs } from './vitals.js';
import { Watchdog } from './watchdog.js';

export interface WorkerEnv {
    db: Db;
    mailer: Mailer;
    /** E-mails one run has under way at most. */
    mailConcurrency: number;
    aiConcurrency: number;
    aiRetryBudgetMs: number;
    /** Where each attempt at a run notes its sends (FLOWCTL_DATA_DIR/journal). */
    journalDir: string;
    log: Logger;
    queue: RunQueue;
    deps: RunDeps;
    metrics: RunMetrics;
    leaseMs: number;
    /** A run with no progress for this long is failed (RUN_NO_PROGRESS_MS). */
    noProgressMs: number;
    /** Right-hand side of the Message-IDs (the domain of MAIL_FROM). */
    messageDomain: string;
    /** RUN_MEMORY_MB in bytes: a run estimated to need more fails before it starts. */
    runMemoryBytes: number;
    /** A run estimated to need at most this gives its run slot up while it waits on the network. */
    waitingRunBytes: number;
    /** Once true, runs are handed back at their next element boundary and no new ones start. */
    readonly stopping: boolean;
    /** Why this process's last attempt at a run stopped, by run id, for the message of a run given up. */
    interruptions: Map<string, string>;
}

/** What the heartbeat records of the attempt under way (see vitals.ts). */
export interface AttemptPhase {
    /** A node that builds rows (DATA_SOURCE, FILTER, AI) is running. */
    loading: boolean;
}

/** Nodes whose work grows the heap with the rows: the likely culprits when a process runs out of memory. */
const LOADING = new Set(['DATA_SOURCE', 'FILTER', 'AI']);

/** How a run's execution ended: its terminal state to write (with the next claim), or neither. */
export type RunEnd = Finish | 'handed-back' | 'lost';

const EMPTY_RESULT = { totalRows: 0, filteredOut: 0, emailsSent: 0 };

/** After the terminal state was written: the webhook, the figures, the log line, the journal's removal. */
export const reportFinished = (env: WorkerEnv, finish: Finish, finished: Finished): void => {
    try {
        removeRunJournal(env.journalDir, finish.runId);
    } catch (err) {
        env.log.warn({ err, runId: finish.runId }, 'could not remove the delivery journal of a finished run');
    }

    if (finished.webhookJobId) {
        env.queue.announce(finished.webhookJobId, WEBHOOK_JOB);
    }

    env.metrics.finished.inc({ status: finish.status });
    const twice = (finish.result as { possiblyDuplicated?: number } | null)?.possiblyDuplicated ?? 0;
    if (twice > 0) {
        env.metrics.emails.inc({ outcome: 'possibly_duplicated' }, twice);
    }

    const line = { runId: finish.runId, workflowId: finish.workflowId, status: finish.status, result: finish.result };
    // A failed run is something to look at: its error goes with it.
    if (finish.status === 'FAILED') {
        env.log.warn({ ...line, error: finish.error }, 'run failed');
    } else {
        env.log.info(line, 'run finished');
    }
};

/** The run's own error line: why it could not start, or which node failed. */
/** Storable (see toNodeRow): it may quote what a node received. */
const runError = (outcome: RunOutcome): string | null => {
    if (outcome.error) {
        return toStorableText(outcome.error);
    }

    const failed = outcome.nodes.find((node) => node.status === 'FAILED');
    return outcome.status === 'FAILED' && failed ? toStorableText(`node '${failed.nodeId}' failed: ${failed.error}`) : null;
};

/**
 * Executes one claimed run to its end, or until it is handed back or its lease is lost. The
 * caller writes the terminal state it returns (together with claiming the next run).
 */
export const runOne = async (
    env: WorkerEnv,
    run: ClaimedRunRow,
    lease: Lease,
    phase: AttemptPhase = { loading: false },
    /** Wraps the run's waits on the network (its run slot is free meanwhile: see slots.ts). */
    waitOn?: PortsRun['waitOn']
): Promise<RunEnd> => {
    const log = env.log.child({ runId: run.id, workflowId: run.workflow_id });
    // A run handed back at shutdown waits PENDING, but it may have sent e-mails: resume it all the same.
    const resumed = run.previous_status === 'RUNNING' || run.handed_back;
    const interrupted = run.previous_status === 'RUNNING' && !run.handed_back;
    const noted = env.interruptions.get(run.id);
    const lastStop = noted ?? WORKER_STOPPED;
    env.interruptions.delete(run.id);
    const previous = lease.previousVitals(run.id);
    // The previous attempt died (this process saw it stop otherwise): did it take its worker down?
    const verdict = interrupted && noted === undefined ? judgeTakeover(previous, stallLimitMs(env.leaseMs)) : null;
    if (resumed) {
        const attempt = await startAttempt(env.db, { id: run.id, workflowId: run.workflow_id, token: lease.token }, interrupted, MAX_STRIKES, verdict !== null);
        if (!attempt) {
            return 'lost';
        }

        if (verdict) {
            // Resumed, it would load the same rows into a process like the last one, and take it down too.
            log.error({ vitals: previous, kind: verdict.kind }, 'run given up: its previous attempt took its worker down');
            const message =
                `${verdict.what}, so it is not tried again. ${verdict.advice}; then ` +
                `retry it (POST /api/workflows/runs/${run.id}/retry) to send the e-mails it did not send`;
            return endUnexecuted(env, run, lease, 'FAILED', message, `interrupted: ${verdict.what}`);
        }

        if (attempt.given_up) {
            log.error({ strikes: attempt.strikes, lastStop }, 'run given up: interrupted again and again without sending anything new');
            const message =
                `the run was interrupted ${attempt.strikes} times in a row without sending a new e-mail (last: ${lastStop}), so it is not tried again; ` +
                `retry it (POST /api/workflows/runs/${run.id}/retry) to send the e-mails it did not send`;
            return endUnexecuted(env, run, lease, 'FAILED', message, `interrupted: ${lastStop}`);
        }

        if (interrupted) {
            log.warn({ strikes: attempt.strikes, lastStop, vitals: previous }, 'run interrupted');
        }
    }

    if (run.cancel_requested_at) {
        return endUnexecuted(env, run, lease, 'CANCELLED', null, 'run cancelled');
    }

    const graph = run.graph as Graph;
    // A retry of a run given up, or stopped before its computing nodes all succeeded, executes the graph
    // again: model replies recorded for that run are reused, and what no run of its chain sent is sent.
    const source = run.retry_of ? await retrySource(env.db, run.retry_of) : null;
    const rederived = source?.rederive === true;
    // Deterministic: a run too big now is too big on every attempt, so it ends here, resumed or not.
    // Memory stays bounded: only a run estimated small enough gives its slot up while it waits on the
    // network, so the runs waiting without a slot (DRAINS_PER_SLOT per slot at most) hold at most one
    // run budget per slot between them, beside the runs holding the slots. A bigger run, or a retry
    // whose size is not estimated, keeps its slot.
    let small = false;
    const tooBig =
        run.retry_of && !rederived
            ? null
            : await overBudget(env.deps, run, lease.token, env.runMemoryBytes, (bytes) => {
                  small = bytes <= env.waitingRunBytes;
              });
    if (tooBig) {
        log.warn({ error: tooBig.error }, 'run failed: over RUN_MEMORY_MB');
        return tooBig;
    }

    const retryRows = run.retry_of && !rederived ? await retryableDeliveries(env.db, run.retry_of, run.id) : null;
    const leftOut = run.retry_of && !rederived ? await unknownDeliveries(env.db, run.retry_of, run.id) : new Map<string, number>();
    let resume: NodeState[] | undefined = resumed ? toNodeStates(await loadNodeStates(env.db, run.id), nodeTypes(graph)) : undefined;
    if (rederived && !resumed && run.retry_of) {
        // What the retried run computed and kept is reused; its OUTPUT nodes run again.
        resume = toNodeStates(await loadNodeStates(env.db, run.retry_of), nodeTypes(graph)).filter((state) => state.type !== 'OUTPUT');
    }

    if (resumed) {
        log.warn({ takeovers: run.takeovers, kept: resume?.filter((s) => s.status === 'SUCCESS').map((s) => s.nodeId) }, 'resuming an interrupted run');
    }

    const controller = new AbortController();
    /** Interrupts e-mails under way: on cancel or a lost lease, but not at shutdown, which lets them finish. */
    const sends = new AbortController();
    // Every e-mail under way listens on both signals, and every model call on the first (twice while
    // it waits), each removing its listener when done. Node 20 and 22 warn of a leak past 10 listeners.
    setMaxListeners(env.mailConcurrency + 2 * env.aiConcurrency + 10, controller.signal, sends.signal);
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

            // Superseded, e-mails under way get their answers (outcomes are written whoever holds the
            // lease): the drain taking over waits for them, and would otherwise send them again.
            if (why !== 'shutdown' && why !== 'superseded') {
                sends.abort();
            }

            controller.abort();
        }
    };

    let stalled: (err: Error) => void = () => {};
    const stall = new Promise<never>((_, reject) => {
        stalled = reject;
    });
    stall.catch(() => {});
    const watchdog = new Watchdog(env.noProgressMs, (idleMs) => {
        log.error({ idleMs }, 'run stalled: no progress while holding the lease');
        stop('stalled');
        // Stopping already (handed back, superseded), its e-mails under way were let finish: not any more.
        sends.abort();
        stalled(new Error(`the run made no progress for ${Math.round(idleMs / 1000)} s (no e-mail answered, no node finished), so it was stopped`));
    });

    // Lost to a drain of this process still taking the lease (it says 'superseded' only once it has
    // it): superseded already, so that the e-mails under way get their answers (queue/active-drains.ts).
    const onLost = () => stop(env.queue.drains.isTakingLease(run.workflow_id) ? 'superseded' : 'lease-lost');
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

    const journal = new DeliveryJournal(env.journalDir, run.id, randomBytes(9).toString('base64url'), (err) =>
        log.warn({ err }, 'the local delivery journal cannot be written: after a crash, e-mails under way count as possibly duplicated')
    );
    /** Why the attempt stops when it does (a store error), for the message of a run given up later. */
    let cause: unknown = null;
    /** Per OUTPUT node: e-mails accepted so far, and how many elements it has (the watch's progress bars). */
    const mailed = new Map<string, number>();
    const mailTotals = new Map<string, number>();
    const withTotal = (nodeId: string, summary: Record<string, unknown>): Record<string, unknown> => {
        const total = mailTotals.get(nodeId);
        return total === undefined ? summary : { ...summary, emailsTotal: total };
    };
    // A sending OUTPUT node says why it is held up while the relay is down.
    const relayWatch = watchRelay(env.mailer.relay, (nodeId, summary) => writer.progress(nodeId, withTotal(nodeId, summary)));
    let progressNoted = false;
    const ports = createPorts(
        {
            db: env.db,
            mailer: env.mailer,
            mailConcurrency: env.mailConcurrency,
            aiConcurrency: env.aiConcurrency,
            aiRetryBudgetMs: env.aiRetryBudgetMs,
            deps: env.deps,
            log,
            messageDomain: env.messageDomain,
            metrics: env.metrics
        },
        {
            id: run.id,
            originRunId: rederived && source ? source.origin_run_id : (retryRows?.[0]?.origin_run_id ?? run.id),
            workflowId: run.workflow_id,
            accountId: run.account_id,
            triggerUploadId: run.trigger_upload_id,
            lease,
            journal,
            resumed,
            rederived,
            signal: sends.signal,
            ...(waitOn && small ? { waitOn } : {}),
            onAccepted() {
                // The first new e-mail of this attempt: if it is interrupted now, that is no strike.
                if (!progressNoted) {
                    progressNoted = true;
                    noteProgress(env.db, { id: run.id, workflowId: run.workflow_id, token: lease.token }).catch((err) => {
                        progressNoted = false;
                        log.warn({ err }, 'could not note the run made progress');
                    });
                }
            },
            onSent(nodeId, sent) {
                env.metrics.emailsSent.inc();
                mailed.set(nodeId, sent);
                // Every count goes to the writer, which coalesces them: the live figure lags by one flush at most.
                writer.progress(nodeId, withTotal(nodeId, relayWatch.summary(nodeId, sent)));
            },
            onElements(nodeId, elements) {
                mailTotals.set(nodeId, elements);
                writer.progress(nodeId, withTotal(nodeId, relayWatch.summary(nodeId, mailed.get(nodeId) ?? 0)));
            },
            onAiProgress: (nodeId, progress) => writer.progress(nodeId, progress),
            onProgress: () => watchdog.progress(),
            fail: (err) => {
                cause ??= err;
                stop('lease-lost');
            }
        }
    );

    let outcome: RunOutcome;
    try {
        const options: ExecuteOptions = {
            ports,
            signal: controller.signal,
            resume,
            hooks: {
                onNodeChange(state) {
                    if (reason === 'lease-lost' || reason === 'superseded') {
                        throw lease.lost.reason ?? new LeaseLost(run.workflow_id);
                    }

                    if (LOADING.has(state.type)) {
                        phase.loading = state.status === 'RUNNING';
                    }

                    watchdog.progress();
                    writer.change(state);
                    relayWatch.node(state);
                }
            }
        };
        const execution = retryRows ? resendFailed(graph, retryRows, leftOut, options) : executeRun(graph, options);
        // A stalled execution may never settle: the watchdog ends the run without it.
        outcome = await Promise.race([execution, stall]);
    } catch (err) {
        if (reason === 'stalled') {
            await saveNodeStates(env.db, run.id, run.workflow_id, lease.token, await writer.settle());
            return endUnexecuted(env, run, lease, 'FAILED', (err as Error).message, (err as Error).message);
        }

        if (reason === 'lease-lost' || reason === 'superseded') {
            await writer.settle();
            noteInterruption(env.interruptions, run.id, cause ?? lease.lost.reason ?? new LeaseLost(run.workflow_id));
            log.warn(reason === 'superseded' ? 'lease lost during the run: a newer drain of this process continues it' : 'lease lost during the run: another worker continues it');
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
        watchdog.stop();
        relayWatch.stop();
        env.metrics.running.dec();
        // The last e-mail's record may still be in flight; a failure has already stopped the run.
        await ports.settle().catch(() => {});
        journal.close();
        lease.lost.removeEventListener('abort', onLost);
        // Only this execution's entry: the run may be another drain's by now.
        if (env.queue.local.get(run.id) === stop) {
            env.queue.local.delete(run.id);
        }
    }

    if (reason === 'lease-lost' || reason === 'superseded') {
        await writer.settle();
        noteInterruption(env.interruptions, run.id, cause ?? lease.lost.reason ?? new LeaseLost(run.workflow_id));
        return 'lost';
    }

    if (reason === 'shutdown' && outcome.status === 'CANCELLED') {
        await handBackRun(env.db, run.id, run.workflow_id, lease.token, await writer.settle());
        log.info('run handed back at shutdown; the next worker resumes it');
        return 'handed-back';
    }

    // Only a resumed run, or one whose e-mail went out again after an unanswered copy, can have sent one twice.
    const result = resumed || ports.resends() > 0 ? withDuplicates(outcome.result, (await deliveryCounts(env.db, run.id)).possiblyDuplicated) : outcome.result;
    return {
        runId: run.id,
        workflowId: run.workflow_id,
        token: lease.token,
        status: outcome.status,
        result,
        error: runError(outcome),
        nodes: await writer.finalRows(outcome.nodes)
    };
};
