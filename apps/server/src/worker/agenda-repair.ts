import type { Agenda, Job } from 'agenda';

/** The parts of Agenda 6.2's JobProcessor (not exported) whose bookkeeping can go stale. */
interface JobProcessorState {
    lockedJobs: Job[];
    runningJobs: Job[];
    jobQueue: { getQueue(): Job[] };
    jobStatus: Record<string, { locked: number; running: number } | undefined>;
}

const idOf = (job: Job): string => String(job.attrs._id);

/**
 * Agenda 6.2.6 counts the jobs it locked per name and stops locking more once `lockLimit` are
 * counted (`shouldLock … 4 >= 4`). A job it locked is counted until it finishes running, but one that
 * is already expired when its turn comes is dropped from the local queue without being uncounted
 * (JobProcessor.jobProcessing: `if (!(await job.isExpired()))` has no else). The lock time is taken
 * before the lock query is sent, so any pause longer than the lock lifetime between that moment and
 * the job's turn (a frozen or slow database, an event loop held by a big run) leaks one count, and
 * `lockLimit` leaks stop the worker for good while it looks healthy.
 *
 * This finds locked jobs that are neither queued nor running (nothing will ever uncount them),
 * uncounts them and frees their rows, so the processor locks again. Returns how many it freed.
 */
export const releaseLeakedLocks = async (agenda: Agenda): Promise<number> => {
    const processor = (agenda as unknown as { jobProcessor?: JobProcessorState }).jobProcessor;
    if (!processor || !Array.isArray(processor.lockedJobs) || typeof processor.jobQueue?.getQueue !== 'function') {
        return 0;
    }

    const alive = new Set([...processor.runningJobs, ...processor.jobQueue.getQueue()].map(idOf));
    const leaked = processor.lockedJobs.filter((job) => !alive.has(idOf(job)));
    for (const job of leaked) {
        processor.lockedJobs.splice(processor.lockedJobs.indexOf(job), 1);
        const status = processor.jobStatus[job.attrs.name];
        if (status && status.locked > 0) {
            status.locked--;
        }
    }

    for (const job of leaked) {
        // Its row keeps an expired lock: free it so that this or another worker takes it at once.
        await (agenda as unknown as { db: { unlockJob(attrs: Job['attrs']): Promise<void> } }).db.unlockJob(job.attrs);
    }

    return leaked.length;
};

/** Drain slots of this process that run a job now. */
export const runningCount = (agenda: Agenda, name: string): number =>
    (agenda as unknown as { jobProcessor?: JobProcessorState }).jobProcessor?.jobStatus[name]?.running ?? 0;

/** Jobs of `name` this process has locked: queued to run here, or running. */
export const lockedJobs = (agenda: Agenda, name: string): Job[] =>
    ((agenda as unknown as { jobProcessor?: JobProcessorState }).jobProcessor?.lockedJobs ?? []).filter((job) => job.attrs.name === name);
