import type { Job } from 'agenda';

import { hasActiveRuns } from '../store/leases.js';
import { DRAIN_JOB, wakeWorkflow } from '../store/queue.js';
import { type ClaimedRunRow, claimNextRun, finishRun } from '../store/runs.js';
import { reportFinished, runOne, type WorkerEnv } from './execute.js';
import { Lease } from './lease.js';

export interface DrainEnv extends WorkerEnv {
    /** Identifies this process in leases and Agenda's lastModifiedBy. */
    holder: string;
}

/**
 * The drain job: "workflow W has work". Holding W's lease it executes W's runs one at a time, oldest
 * first, until none is left. Agenda may deliver the job twice or to two processes at once; the lease
 * makes every copy but one return at once.
 */
export const drainWorkflow = async (env: DrainEnv, workflowId: string, job: Job): Promise<void> => {
    if (env.stopping) {
        return;
    }

    const lease = await Lease.acquire(env.db, workflowId, env.holder, env.leaseMs);
    if (!lease) {
        return;
    }

    let current: string | null = null;
    let renewing = false;
    const heartbeat = setInterval(async () => {
        if (renewing) {
            return;
        }

        renewing = true;
        try {
            const renewal = await lease.renew(current);
            if (renewal.cancelRequested && current) {
                env.queue.local.get(current)?.('cancel');
            }

            // Keeps Agenda from handing the job to another process; the lease is what really guards.
            await job.touch().catch(() => {});
        } catch (err) {
            env.log.warn({ err, workflowId }, 'lease heartbeat failed');
        } finally {
            renewing = false;
        }
    }, Math.max(50, Math.floor(env.leaseMs / 3)));

    let lost = false;
    try {
        let run: ClaimedRunRow | null = await claimNextRun(env.db, workflowId, lease.token);
        for (;;) {
            if (env.stopping || lease.lost.aborted) {
                break;
            }

            if (!run) {
                // Release first, then look again: a run enqueued meanwhile either is seen now or
                // was enqueued after the release and brought its own drain job.
                await lease.release();
                if (!(await hasActiveRuns(env.db, workflowId)) || !(await lease.take())) {
                    return;
                }

                run = await claimNextRun(env.db, workflowId, lease.token);
                continue;
            }

            current = run.id;
            const end = await runOne(env, run, lease);
            current = null;
            if (end === 'lost' || end === 'handed-back') {
                lost = end === 'lost';
                break;
            }

            const finished = await finishRun(env.db, end, !env.stopping && !lease.lost.aborted);
            if (!finished) {
                env.log.warn({ runId: end.runId, workflowId }, 'lease lost before the run could be finished: another worker continues it');
                lost = true;
                break;
            }

            reportFinished(env, end, finished);
            run = finished.next;
        }

        if (lost || lease.lost.aborted) {
            return;
        }

        // Stopping: give the workflow back so another worker (or this one, restarted) carries on.
        await lease.release();
        const jobId = await wakeWorkflow(env.db, workflowId);
        if (jobId) {
            env.queue.announce(jobId, DRAIN_JOB);
        }
    } catch (err) {
        // The store failed under us. The lease expires and the run is resumed by whoever takes it next.
        env.log.error({ err, workflowId }, 'drain interrupted');
    } finally {
        clearInterval(heartbeat);
    }
};
