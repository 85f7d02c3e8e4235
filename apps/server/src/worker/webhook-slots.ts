import type { PostgresBackend } from '@agendajs/postgres-backend';
import type { Agenda } from 'agenda';

import type { Queryable } from '../store/db.js';
import { lockNextWebhookJob, WEBHOOK_JOB } from '../store/queue.js';
import { lockedJobs } from './agenda-repair.js';

type NextJobToRun = (jobName: string, nextScanAt: Date, lockDeadline: Date, now?: Date, options?: { lastModifiedBy?: string }) => Promise<unknown>;

/**
 * Shares this process's webhook delivery slots across accounts. Agenda hands jobs out in the order
 * they fell due, whoever's they are: 40 runs of one account whose endpoint never answered held all
 * the slots for 10 s an attempt, and another account's delivery waited 150 s behind them. Here
 * Agenda's lookup of the next delivery passes over the accounts that already hold `perAccount` of
 * this process's deliveries (locked: running, or about to): their other deliveries wait in the job
 * table, still due, and no slot is spent on them until one of theirs ends.
 *
 * Among the others it takes the account holding the fewest slots first, and only then the oldest
 * due job. Oldest-first alone handed a slot freed by a flooder's timed-out delivery straight back
 * to that flooder (its next job was older, and it was below its cap again): with four accounts
 * whose endpoints never answered filling the slots, another account's webhook waited over 60 s.
 */
export const shareWebhookSlots = (agenda: Agenda, backend: PostgresBackend, db: Queryable, perAccount: number): void => {
    const repository = backend.repository as unknown as { getNextJobToRun: NextJobToRun; rowToJob(row: unknown): unknown };
    const lookUp = repository.getNextJobToRun.bind(repository);

    const lockNext: NextJobToRun = async (_jobName, nextScanAt, lockDeadline, now, options) => {
        const held = new Map<string, number>();
        for (const job of lockedJobs(agenda, WEBHOOK_JOB)) {
            const accountId = (job.attrs.data as { accountId?: unknown } | undefined)?.accountId;
            if (typeof accountId === 'string') {
                held.set(accountId, (held.get(accountId) ?? 0) + 1);
            }
        }

        const row = await lockNextWebhookJob(db, { lockTime: now ?? new Date(), nextScanAt, lockDeadline, holder: options?.lastModifiedBy ?? null, held, perAccount });
        return row ? repository.rowToJob(row) : undefined;
    };

    // Lookups run one at a time, each a turn of the event loop after the previous one answered: by
    // then Agenda has listed the job that one locked, so the next counts it.
    let previous: Promise<unknown> = Promise.resolve();
    repository.getNextJobToRun = (jobName, ...rest) => {
        if (jobName !== WEBHOOK_JOB) {
            return lookUp(jobName, ...rest);
        }

        const next = previous.then(() => new Promise((resolve) => setImmediate(resolve))).then(() => lockNext(jobName, ...rest));
        previous = next.catch(() => {});
        return next;
    };
};
