import Crypto from 'node:crypto';
import Os from 'node:os';
import Path from 'node:path';

import { PostgresBackend } from '@agendajs/postgres-backend';
import { Agenda, type Job } from 'agenda';

import type { Context } from '../context.js';
import { senderDomain } from '../mail/compose.js';
import { giveBackHeap, HEAP_CHECK_DELAY_MS } from './heap.js';
import { DRAIN_JOB, deleteFinishedJobs, forgetDeadHolders, oldestDueDrainMs, strandedWorkflows, WEBHOOK_JOB, wakeWorkflow } from '../store/queue.js';
import { deleteExpiredRuns, deleteUnusedRevisions } from '../store/retention.js';
import { activeRunIds } from '../store/runs.js';
import { releaseLeakedLocks, runningCount } from './agenda-repair.js';
import { journaledRuns, removeRunJournal } from './delivery-journal.js';
import { type DrainEnv, drainWorkflow } from './drain.js';
import { orderDrainJobs } from './drain-order.js';
import { createScheduleTicks } from './schedule-ticks.js';
import { RunSlots } from './slots.js';
import { createRunMetrics } from './metrics.js';
import type { RunDeps } from '../services/run-deps.js';
import { shareWebhookSlots } from './webhook-slots.js';
import { deliverWebhook, WEBHOOK_SLOTS_PER_ACCOUNT, webhookBackoff } from './webhooks.js';

export interface Worker {
    start(): Promise<void>;
    /**
     * From now on takes no new run and starts no new e-mail: a run under way is handed back at its next
     * element boundary. At once, while the rest of the process stops (stop() waits for it).
     */
    quiesce(): void;
    /** Takes no new runs, hands running ones back at their next element boundary, waits for that. */
    stop(): Promise<void>;
}

/**
 * E-mails a run has under way per SMTP connection. While some are sent, the intents of the next ones
 * are written, so many e-mails share each database write. A 5,000-row run to a loopback SMTP sink on
 * the embedded store, 8 connections: 1 per connection 400/s, 4 per connection 1,220/s, 8 1,230-1,370/s.
 */
const SENDS_PER_CONNECTION = 8;
/**
 * Drain jobs a process takes at once, per run slot. A run holds a slot only while it computes (see
 * slots.ts); the others wait on the network, or for a slot, and cost no CPU. Ten accounts each
 * holding two runs on a model that answers after 50 s still leave the next account's run a place.
 */
const DRAINS_PER_SLOT = 8;
const STOP_TIMEOUT_MS = 15_000;
const CLEAN_EVERY_MS = 2_000;
/** A drain job due this long while this process has a free slot means its job queue is stuck. */
const STUCK_AFTER_MS = 10_000;
const RETENTION_EVERY_MS = 60 * 60 * 1000;

/**
 * The run worker: Agenda processes drain jobs (one per workflow with work) and webhook deliveries.
 * RUN_CONCURRENCY run slots say how many runs compute at once in this process, handed round-robin
 * across accounts (slots.ts); Agenda takes up to DRAINS_PER_SLOT times as many drain jobs, for runs
 * that wait on the network meanwhile. The workflow lease keeps each workflow to one run at a time
 * across all processes (see drain.ts).
 */
export const createWorker = (ctx: Context, deps: RunDeps): Worker => {
    const { config, db } = ctx;
    const log = ctx.log.child({ component: 'worker' });
    const holder = `${Os.hostname()}:${process.pid}:${Crypto.randomBytes(3).toString('hex')}`;
    const leaseMs = config.runLeaseMs;
    let stopping = false;
    let agenda: Agenda | null = null;
    let sweeper: NodeJS.Timeout | null = null;
    let cleaner: NodeJS.Timeout | null = null;
    let watchdog: NodeJS.Timeout | null = null;
    let retention: NodeJS.Timeout | null = null;
    /** Drain jobs executing in this process. */
    let draining = 0;
    const drains = config.runConcurrency * DRAINS_PER_SLOT;
    const slots = new RunSlots(config.runConcurrency);
    const ticks = createScheduleTicks(ctx);
    // Once no drain has run here for a moment (what its last run held, socket buffers and records
    // still being written included, is unreachable by then), the heap a big run grew is given back.
    const heapCheck = setTimeout(() => draining === 0 && giveBackHeap(), HEAP_CHECK_DELAY_MS);
    heapCheck.unref();

    const env: DrainEnv = {
        db,
        mailer: ctx.mailer,
        mailConcurrency: config.smtp.connections * SENDS_PER_CONNECTION,
        aiConcurrency: config.aiConcurrency,
        aiRetryBudgetMs: config.aiRetryBudgetMs,
        journalDir: Path.join(config.dataDir, 'journal'),
        log,
        queue: ctx.queue,
        deps,
        metrics: createRunMetrics(ctx.metrics, () => slots.waiters),
        leaseMs,
        noProgressMs: config.runNoProgressMs,
        messageDomain: senderDomain(config.mailFrom),
        runMemoryBytes: config.runMemoryMb * 1024 * 1024,
        waitingRunBytes: (config.runMemoryMb * 1024 * 1024) / DRAINS_PER_SLOT,
        holder,
        interruptions: new Map(),
        slots,
        drainPlacesFull: () => draining >= drains,
        get stopping() {
            return stopping;
        }
    };

    // The relay's answers to every attempt, by class, whichever run (or sign-in code) it was for.
    ctx.mailer.relay?.on('reply', (reply: string) => env.metrics.smtpReplies.inc({ class: reply }));

    /** Wakes workflows whose work lost its drain job (normally none). */
    const sweep = async () => {
        try {
            for (const { workflow_id } of await strandedWorkflows(db, leaseMs)) {
                const jobId = await wakeWorkflow(db, workflow_id);
                if (jobId) {
                    log.info({ workflowId: workflow_id }, 'woke a workflow whose runs had no worker');
                    ctx.queue.announce(jobId, DRAIN_JOB);
                }
            }
        } catch (err) {
            log.warn({ err }, 'sweep for stranded runs failed');
        }
    };

    /**
     * Keeps the job queue working: frees the lock counts Agenda leaks (see agenda-repair.ts), and says
     * (log, /readyz) when drain jobs still wait while this process has free slots.
     */
    const watch = async () => {
        if (!agenda || stopping) {
            return;
        }

        try {
            const freed = await releaseLeakedLocks(agenda);
            if (freed > 0) {
                log.warn({ freed }, 'freed drain jobs the job queue had locked and lost (after a pause longer than their lock lifetime)');
                ctx.queue.announceHere(DRAIN_JOB);
            }

            const waited = await oldestDueDrainMs(db, leaseMs);
            const idle = drains - runningCount(agenda, DRAIN_JOB);
            const stuck =
                waited !== null && waited > Math.max(STUCK_AFTER_MS, 3 * leaseMs) && idle > 0
                    ? `The run worker is stuck: runs have waited ${Math.round(waited / 1000)} s for a worker while ${idle} of its ${drains} drain places are free`
                    : null;
            if (stuck && !ctx.queue.stuck) {
                log.error({ waitedMs: waited, idle }, 'run worker stuck: drain jobs wait while slots are free');
            } else if (!stuck && ctx.queue.stuck) {
                log.info('run worker takes runs again');
            }

            ctx.queue.stuck = stuck;
        } catch (err) {
            // The store is down: /readyz says so already, and the sweep retries.
            log.debug({ err }, 'job queue watchdog could not look');
        }
    };

    /** Finished runs past RUN_RETENTION_DAYS go, with their node states and delivery records; then hook uploads and revisions no run names. */
    const forgetExpiredRuns = async () => {
        try {
            const deleted = await deleteExpiredRuns(db, config.runRetentionDays);
            if (deleted > 0) {
                log.info({ deleted, retentionDays: config.runRetentionDays }, 'deleted finished runs past their retention');
            }

            const hookUploads = await deps.forgetUnusedHookUploads();
            if (hookUploads > 0) {
                log.info({ hookUploads }, 'deleted the rows posted to hooks that no run reads any more');
            }

            const revisions = await deleteUnusedRevisions(db);
            if (revisions > 0) {
                log.info({ revisions }, 'deleted workflow revisions that no run names, past the newest of each workflow');
            }
        } catch (err) {
            log.warn({ err }, 'could not delete finished runs past their retention');
        }
    };

    /** Upload bytes that no upload owns: the app looks for them at start, this every hour after. */
    const forgetOrphanUploads = async () => {
        try {
            const removed = await deps.sweepOrphanUploads();
            if (removed > 0) {
                log.info({ removed }, 'removed upload bytes that no upload owned');
            }
        } catch (err) {
            log.warn({ err: (err as Error).message }, 'could not look for upload bytes that no upload owns');
        }
    };

    /** Notes of runs that ended without their worker removing them (cancelled or deleted while waiting). */
    const forgetEndedJournals = async () => {
        try {
            const runIds = journaledRuns(env.journalDir);
            const active = runIds.length > 0 ? await activeRunIds(db, runIds) : new Set<string>();
            for (const runId of runIds.filter((id) => !active.has(id))) {
                removeRunJournal(env.journalDir, runId);
            }
        } catch (err) {
            log.warn({ err }, 'could not remove the delivery journals of ended runs');
        }
    };

    const quiesce = (): void => {
        stopping = true;
        for (const stopRun of ctx.queue.local.values()) {
            stopRun('shutdown');
        }
    };

    return {
        async start() {
            const backend = new PostgresBackend({ pool: db.pool, ensureSchema: false, disableNotifications: true });
            agenda = new Agenda({
                name: holder,
                backend,
                notificationChannel: ctx.queue.channel,
                // A fallback only: new jobs are announced. It bounds how late a webhook retry can run.
                processEvery: Math.min(1_000, Math.max(100, Math.floor(leaseMs / 2))),
                maxConcurrency: drains + config.webhookConcurrency,
                defaultConcurrency: config.runConcurrency,
                defaultLockLifetime: leaseMs
            });
            agenda.on('error', (err) => log.warn({ err }, 'job queue error'));
            // With lockLimit, drain jobs beyond its drain places wait unlocked in the table, and Agenda
            // looks there again only at its next poll. A finished drain frees a slot: look at once.
            agenda.on(`complete:${DRAIN_JOB}`, () => {
                setImmediate(() => ctx.queue.announceHere(DRAIN_JOB));
            });
            // Likewise for deliveries, which wait unlocked while their account holds its share of the slots.
            shareWebhookSlots(agenda, backend, db, WEBHOOK_SLOTS_PER_ACCOUNT);
            // And drain places go first to the account holding the fewest, across processes.
            orderDrainJobs(backend, db);
            agenda.on(`complete:${WEBHOOK_JOB}`, () => {
                setImmediate(() => ctx.queue.announceHere(WEBHOOK_JOB));
            });

            agenda.define(
                DRAIN_JOB,
                async (job: Job<{ workflowId?: unknown }>) => {
                    const workflowId = job.attrs.data?.workflowId;
                    if (typeof workflowId === 'string') {
                        draining++;
                        if (draining >= drains) {
                            // Drain jobs may wait for a place: the drains lingering without work give theirs up.
                            ctx.queue.wakes.dismissAll();
                        }

                        try {
                            await drainWorkflow(env, workflowId, job);
                        } finally {
                            draining--;
                            if (draining === 0) {
                                heapCheck.refresh();
                            }
                        }
                    }
                },
                { concurrency: drains, lockLimit: drains, lockLifetime: leaseMs }
            );
            agenda.define(
                WEBHOOK_JOB,
                async (job: Job<{ runId?: unknown }>) => {
                    const runId = job.attrs.data?.runId;
                    if (typeof runId === 'string') {
                        await deliverWebhook({ db, encryptionKey: ctx.secrets.encryptionKey, log, allowPrivateNetwork: ctx.config.allowPrivateNetwork }, runId, (job.attrs.failCount ?? 0) + 1);
                    }
                },
                { concurrency: config.webhookConcurrency, lockLimit: config.webhookConcurrency, lockLifetime: 60_000, backoff: webhookBackoff }
            );

            if (!config.databaseUrl) {
                await forgetDeadHolders(db);
            }

            await forgetEndedJournals();
            await forgetExpiredRuns();
            retention = setInterval(() => forgetExpiredRuns().then(forgetOrphanUploads), RETENTION_EVERY_MS);
            retention.unref();
            await agenda.start();
            await sweep();
            sweeper = setInterval(sweep, leaseMs);
            sweeper.unref();
            // Finished jobs are only clutter, but every job lookup pays for them.
            cleaner = setInterval(() => deleteFinishedJobs(db).catch((err) => log.warn({ err }, 'could not delete finished jobs')), CLEAN_EVERY_MS);
            cleaner.unref();
            watchdog = setInterval(watch, Math.max(200, Math.min(leaseMs, 5_000)));
            watchdog.unref();
            ticks.start();
            log.info({ holder, concurrency: config.runConcurrency, drains }, 'run worker started');
        },

        quiesce,

        async stop() {
            clearTimeout(heapCheck);
            quiesce();
            await ticks.stop();
            if (sweeper) {
                clearInterval(sweeper);
            }

            if (cleaner) {
                clearInterval(cleaner);
            }

            if (watchdog) {
                clearInterval(watchdog);
            }

            if (retention) {
                clearInterval(retention);
            }

            ctx.queue.stuck = null;

            ctx.queue.wakes.dismissAll();

            if (agenda) {
                const drained = await agenda.drain({ timeout: STOP_TIMEOUT_MS });
                if (drained.timedOut) {
                    log.warn({ running: drained.running }, 'jobs still running at shutdown; their leases expire and others resume them');
                }
            }
        }
    };
};
