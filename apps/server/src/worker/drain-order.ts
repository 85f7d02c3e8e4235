import type { PostgresBackend } from '@agendajs/postgres-backend';

import type { Queryable } from '../store/db.js';
import { DRAIN_JOB, lockNextDrainJob } from '../store/queue.js';

type NextJobToRun = (jobName: string, nextScanAt: Date, lockDeadline: Date, now?: Date, options?: { lastModifiedBy?: string }) => Promise<unknown>;

/**
 * Agenda's lookup of the next drain job takes first the account holding the fewest live drain jobs
 * across every process (store/queue.ts lockNextDrainJob), not the oldest job. Inside a process, run
 * slots go round-robin across accounts (slots.ts); this shares the drain places themselves, which
 * a process takes only as many of as DRAINS_PER_SLOT allows. Other job kinds keep the lookup they
 * had (webhook-slots.ts for deliveries).
 */
export const orderDrainJobs = (backend: PostgresBackend, db: Queryable): void => {
    const repository = backend.repository as unknown as { getNextJobToRun: NextJobToRun; rowToJob(row: unknown): unknown };
    const lookUp = repository.getNextJobToRun.bind(repository);
    repository.getNextJobToRun = async (jobName, nextScanAt, lockDeadline, now, options) => {
        if (jobName !== DRAIN_JOB) {
            return lookUp(jobName, nextScanAt, lockDeadline, now, options);
        }

        const row = await lockNextDrainJob(db, { lockTime: now ?? new Date(), nextScanAt, lockDeadline, holder: options?.lastModifiedBy ?? null });
        return row ? repository.rowToJob(row) : undefined;
    };
};
