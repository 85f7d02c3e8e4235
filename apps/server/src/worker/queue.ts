import { PostgresNotificationChannel } from '@agendajs/postgres-backend';
import { InMemoryNotificationChannel, type NotificationChannel, toJobId } from 'agenda';
import type pg from 'pg';
import type { Logger } from 'pino';

export type StopReason = 'cancel' | 'shutdown' | 'lease-lost' | 'stalled';

/**
 * How the API side reaches the workers. Jobs are rows in agenda_jobs; announcing one wakes a worker
 * at once instead of at its next poll: in-process on the embedded store (one process), through
 * LISTEN/NOTIFY on PostgreSQL (any number of processes).
 */
export interface RunQueue {
    readonly channel: NotificationChannel;
    /** Wakes the workers for a job just written. Never throws; a lost wake-up costs one poll interval. */
    announce(jobId: string, jobName: string): void;
    /** Runs executing in this process, so a cancel or a shutdown reaches them at once. */
    readonly local: Map<string, (reason: StopReason) => void>;
    /** For processes that announce without running Agenda (`--role api`). */
    open(): Promise<void>;
    close(): Promise<void>;
}

export const createRunQueue = (options: { embedded: boolean; pool: pg.Pool; log: Logger }): RunQueue => {
    const channel: NotificationChannel = options.embedded
        ? new InMemoryNotificationChannel()
        : new PostgresNotificationChannel({ pool: options.pool, channelName: 'flowctl_jobs' });
    // The channel is an EventEmitter: an unhandled 'error' would end the process.
    (channel as unknown as NodeJS.EventEmitter).on?.('error', (err: Error) => options.log.warn({ err }, 'job notification channel error'));

    return {
        channel,
        local: new Map(),
        announce(jobId, jobName) {
            if (channel.state !== 'connected') {
                return;
            }

            const at = new Date();
            channel.publish({ jobId: toJobId(jobId), jobName, nextRunAt: at, priority: 0, timestamp: at }).catch((err: Error) => {
                options.log.warn({ err, jobId }, 'could not announce a job; a worker will find it at its next poll');
            });
        },
        async open() {
            if (channel.state === 'disconnected') {
                await channel.connect();
            }
        },
        async close() {
            if (channel.state !== 'disconnected') {
                await channel.disconnect();
            }
        }
    };
};
