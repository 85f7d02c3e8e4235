import { performance } from 'node:perf_hooks';

import type { Job } from 'agenda';

import { hasActiveRuns } from '../store/leases.js';
import { DRAIN_JOB, fewerHeldWaiting, wakeWorkflow } from '../store/queue.js';
import { type ClaimedRunRow, claimNextRun, finishRun } from '../store/runs.js';
import { type AttemptPhase, reportFinished, runOne, type WorkerEnv } from './execute.js';
import type { Lingered } from '../queue/drain-wakes.js';
import { noteInterruption } from './interruption.js';
import { Lease } from './lease.js';
import { type RunSlots, SlotHold } from './slots.js';
import { isNear, NEAR_WATCH_MS, nearNow, sampleVitals } from './vitals.js';

export interface DrainEnv extends WorkerEnv {
    /** Identifies this process in leases and Agenda's lastModifiedBy. */
    holder: string;
    /** This process's run slots, shared round-robin across accounts (slots.ts). */
    slots: RunSlots;
    /** Whether every drain place of this process is taken (then another account's job may wait for one). */
    drainPlacesFull(): boolean;
}

/**
 * How long a drain out of runs keeps the workflow's lease for a next run. A client that enqueues its
 * next run once it has seen the last one end comes back within this; a workflow run now and then
 * costs the drain's heartbeat (two statements a second) meanwhile.
 */
const LINGER_MS = 1_000;

/** Sends a drain job for the workflow to the back of the queue, if it has runs left. */
const requeue = async (env: DrainEnv, workflowId: string): Promise<void> => {
    const jobId = await wakeWorkflow(env.db, workflowId);
    if (jobId) {
        env.queue.announce(jobId, DRAIN_JOB);
    }
};

/**
 * The drain job: "workflow W has work". Holding W's lease it executes W's runs one at a time, oldest
 * first, until none is left. Agenda may deliver the job twice or to two processes at once; the lease
 * makes every copy but one return at once.
 *
 * Each run computes holding one of the process's run slots, and waits on the network without it.
 * A run that ends while another account waits for a slot hands its slot over and the workflow's
 * next run waits its turn (round-robin); with nobody waiting, the next run is claimed in the
 * statement that finishes this one. No slot is counted in the store, so a claim is one statement.
 *
 * Drain places (the jobs a process takes at once) are shared too. When every place of this process
 * is taken, a run's end costs one statement more: if a drain job of an account holding fewer live
 * drain jobs than this one waits, this drain gives its place up (its workflow queued again) and
 * Agenda's lookup takes that account's job next (drain-order.ts). Otherwise an account with more
 * workflows with work than the places would keep them until its backlog was gone.
 */
export const drainWorkflow = async (env: DrainEnv, workflowId: string, job: Job): Promise<void> => {
    if (env.stopping) {
        return;
    }

    const lease = await env.queue.drains.takingLease(workflowId, () => Lease.acquire(env.db, workflowId, env.holder, env.leaseMs));
    if (!lease) {
        return;
    }

    let current: string | null = null;
    /** Set by the run executing: whether it is building rows (for the heartbeat's record). */
    const phase: AttemptPhase = { loading: false };
    let renewing = false;
    /** A look at the heap found it near its limit while a renewal was under way: record again after it. */
    let again = false;
    /** Whether the last record sent shows the process near its memory limits. */
    let recordedNear = false;
    const interval = Math.max(50, Math.floor(env.leaseMs / 3));
    let lastBeat = performance.now();
    /** How much later than due a beat came, at most, since the last record was written. */
    let late = 0;
    const renew = async (): Promise<void> => {
        renewing = true;
        try {
            do {
                again = false;
                // The record rides on the renewal's own write: how close the process is to its memory
                // limits and how long its event loop was held, for whoever takes the run over if it dies.
                const vitals = sampleVitals(current, late, env.queue.local.size, current !== null && phase.loading);
                late = 0;
                recordedNear = isNear(vitals);
                // The same statement keeps the job's lock, as job.touch() would with one of its own, so
                // Agenda does not hand the job to another process; the lease is what really guards.
                const lockedAt = new Date();
                const renewal = await lease.renew(current, vitals, job.attrs._id ? { id: String(job.attrs._id), lockedAt } : null);
                job.attrs.lockedAt = lockedAt;
                if (renewal.cancelRequested && current) {
                    env.queue.local.get(current)?.('cancel');
                }
            } while (again);
        } catch (err) {
            env.log.warn({ err, workflowId }, 'lease heartbeat failed');
        } finally {
            renewing = false;
        }
    };
    const heartbeat = setInterval(() => {
        const now = performance.now();
        late = Math.max(late, now - lastBeat - interval);
        lastBeat = now;
        if (!renewing) {
            void renew();
        }
    }, interval);
    // Out of turn while rows are built: the heap can fill between two beats (vitals.ts, NEAR_WATCH_MS).
    const nearWatch = setInterval(() => {
        if (current === null || !phase.loading || recordedNear || again || !nearNow()) {
            return;
        }

        if (renewing) {
            again = true;
        } else {
            void renew();
        }
    }, NEAR_WATCH_MS);

    const waker = env.queue.wakes.open(workflowId);
    /** Not while stopping, nor while this process's drain places are all taken (jobs may wait for one). */
    const linger = (): Promise<Lingered> =>
        env.stopping || env.drainPlacesFull() ? Promise.resolve('dismissed') : waker.linger(Math.min(LINGER_MS, env.leaseMs), lease.lost);
    const hold = new SlotHold(env.slots, lease.accountId);
    const waitOn = <T>(wait: () => Promise<T>) => hold.waitOn(wait);
    let lost = false;
    // An older drain of this workflow still executing here lost the lease (it expired while this
    // process was held up): it stops now, and nothing is claimed until it has, so that the run it
    // was executing is resumed from its records complete, never beside it (queue/active-drains.ts).
    const turn = env.queue.drains.enter(workflowId, () => {
        if (current) {
            env.queue.local.get(current)?.('superseded');
        }

        lease.markLost();
    });
    try {
        if (turn.previous) {
            env.log.warn({ workflowId }, 'an older drain of the workflow lost its lease and is still executing here: waiting for it to stop');
            await turn.previous;
        }

        await hold.take();
        // Stopping or superseded meanwhile (the wait above can be long): claim nothing.
        let run: ClaimedRunRow | null = env.stopping || lease.lost.aborted ? null : await claimNextRun(env.db, workflowId, lease.token);
        for (;;) {
            if (env.stopping || lease.lost.aborted) {
                break;
            }

            if (!run) {
                // Out of runs, the drain lingers a moment holding the lease but no slot: a run
                // enqueued meanwhile adds no drain job and wakes it (queue/drain-wakes.ts). Then release
                // first, and look again: a run enqueued meanwhile either is seen now or was enqueued
                // after the release and brought its own drain job.
                hold.give();
                if ((await linger()) !== 'woken') {
                    await lease.release();
                    if (!(await hasActiveRuns(env.db, workflowId)) || !(await lease.take())) {
                        return;
                    }
                }

                await hold.take();
                if (!env.stopping && !lease.lost.aborted) {
                    run = await claimNextRun(env.db, workflowId, lease.token);
                }

                continue;
            }

            current = run.id;
            phase.loading = false;
            const end = await runOne(env, run, lease, phase, waitOn);
            if (end === 'lost' || end === 'handed-back') {
                lost = end === 'lost';
                break;
            }

            // Known in this process, without a round trip: waiters exist only while every slot is held.
            const giveWay = env.slots.othersWaiting(lease.accountId);
            const givePlace = !env.stopping && env.drainPlacesFull() && (await fewerHeldWaiting(env.db, lease.accountId, env.leaseMs));
            const finished = await finishRun(env.db, end, !env.stopping && !lease.lost.aborted && !giveWay && !givePlace);
            current = null;
            if (!finished) {
                env.log.warn({ runId: end.runId, workflowId }, 'lease lost before the run could be finished: another worker continues it');
                lost = true;
                break;
            }

            reportFinished(env, end, finished);
            run = finished.next;
            if (givePlace) {
                hold.close();
                await lease.release();
                await requeue(env, workflowId);
                return;
            }

            if (giveWay) {
                // The slot goes to the account whose turn it is; this workflow's next run waits for the next
                // free one, holding the lease (so its runs keep their order) but no memory and no CPU.
                hold.give();
                await hold.take();
                if (!env.stopping && !lease.lost.aborted) {
                    run = await claimNextRun(env.db, workflowId, lease.token);
                }
            }
        }

        if (lost || lease.lost.aborted) {
            // Whoever took the lease continues; if nobody did (it expired while this process was held
            // up, in a single process too), a drain job now makes sure someone does at once.
            const jobId = await wakeWorkflow(env.db, workflowId);
            if (jobId) {
                env.log.info({ workflowId }, 'lease lost: the workflow is queued again');
                env.queue.announce(jobId, DRAIN_JOB);
            }

            return;
        }

        // Stopping: give the workflow back so another worker (or this one, restarted) carries on.
        await lease.release();
        await requeue(env, workflowId);
    } catch (err) {
        // The store failed under us. The lease expires and the run is resumed by whoever takes it next.
        if (current) {
            noteInterruption(env.interruptions, current, err);
        }

        env.log.error({ err, workflowId }, 'drain interrupted');
    } finally {
        turn.leave();
        hold.close();
        waker.close();
        clearInterval(heartbeat);
        clearInterval(nearWatch);
    }
};
