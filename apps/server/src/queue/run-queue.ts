import { PostgresNotificationChannel } from '@agendajs/postgres-backend';
import { InMemoryNotificationChannel, type JobNotification, type NotificationChannel, toJobId } from 'agenda';
import type pg from 'pg';
import type { Logger } from 'pino';

import { DRAIN_WAKE, JOB_CHANNEL } from '../store/queue.js';
import { ActiveDrains } from './active-drains.js';
import { DrainWakes } from './drain-wakes.js';

/**
 * Why a run's execution stops. `superseded`: a newer drain of this process took its workflow's lease
 * (this one's had expired); it starts no e-mail, lets those under way get their answers, and returns
 * the run to the newer drain, which waits for that (active-drains.ts).
 */
export type StopReason = 'cancel' | 'shutdown' | 'lease-lost' | 'stalled' | 'superseded';

/**
 * How the API side reaches the workers. Jobs are rows in agenda_jobs; announcing one wakes a worker
 * at once instead of at its next poll: in-process on the embedded store (one process), through
 * LISTEN/NOTIFY on PostgreSQL (any number of processes).
 */
export interface RunQueue {
    readonly channel: NotificationChannel;
    /** Wakes the workers for a job just written. Never throws; a lost wake-up costs one poll interval. */
    announce(jobId: string, jobName: string): void;
    /**
     * Wakes this process's Agenda alone, without a round trip: for a place freed here, which concerns no
     * other process. On PostgreSQL a NOTIFY came back through the listening connection, the hop that
     * waited longest on a loaded machine while the freed place's next job waited.
     */
    announceHere(jobName: string): void;
    /**
     * Drains of this process by workflow. A run enqueued while its workflow's lease is held wakes the
     * drain holding it (drain-wakes.ts): here directly, in other processes by a notification that the
     * enqueue statement sends itself (PostgreSQL).
     */
    readonly wakes: DrainWakes;
    /** Runs executing in this process, so a cancel or a shutdown reaches them at once. */
    readonly local: Map<string, (reason: StopReason) => void>;
    /** Drains of this process by workflow: a new one stops the one it replaces and waits for it. */
    readonly drains: ActiveDrains;
    /**
     * Set by this process's worker while drain jobs wait and none of its free slots takes them (a
     * stuck job queue), so /readyz can say so. Null when the worker works, or there is none here.
     */
    stuck: string | null;
    /** For processes that announce without running Agenda (`--role api`). */
    open(): Promise<void>;
    close(): Promise<void>;
}

const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * LISTEN/NOTIFY with a reconnection that backs off. Agenda's own never does: its connect() resets
 * the attempt count that sets the delay, so with the database down it tried every 100 ms, each try
 * reporting its error twice (~19 warnings with stack traces per second), and it gave up for good
 * after 10 tries in a row had it counted them. This one waits 0.1 s, 0.2 s, … up to 5 s between
 * tries and never gives up; a successful connect starts over.
 */
class BackingOffChannel extends PostgresNotificationChannel {
    private failures = 0;

    deliverHere(notification: JobNotification): Promise<void> {
        return this.notifyHandlers(notification);
    }

    /**
     * A drain wake (one per enqueue while its workflow is drained, sent by the enqueue's statement) goes
     * to the drains alone: Agenda would ignore it, but only after making a debug logger for it (isatty
     * and three more system calls).
     */
    protected override notifyHandlers(notification: JobNotification): Promise<void> {
        if (notification.jobName !== DRAIN_WAKE) {
            return super.notifyHandlers(notification);
        }

        this.wakes.wake(String(notification.jobId));
        return Promise.resolve();
    }

    constructor(
        pool: pg.Pool,
        private readonly wakes: DrainWakes
    ) {
        super({ pool, channelName: JOB_CHANNEL });
        this.on('stateChange', (state: string) => {
            if (state === 'connected') {
                this.failures = 0;
            }
        });
    }

    /**
     * A try whose LISTEN failed (the connection dropped or timed out after it was opened) leaves its
     * client as Agenda's listen client, and the next try takes another without releasing it: one
     * connection lost per failed try, and the pool could never end. Released here.
     */
    override async connect(): Promise<void> {
        try {
            await super.connect();
        } catch (err) {
            const self = this as unknown as { listenClient?: pg.PoolClient };
            self.listenClient?.release(true);
            self.listenClient = undefined;
            throw err;
        }
    }

    protected override scheduleReconnect(): void {
        const delay = Math.min(RECONNECT_FIRST_MS * 2 ** this.failures, RECONNECT_MAX_MS);
        this.failures++;
        this.setState('reconnecting');
        clearTimeout(this.reconnectTimeout);
        // connect() reports its own failure (an 'error' event) and schedules the next try.
        this.reconnectTimeout = setTimeout(() => this.connect().catch(() => {}), delay);
        this.reconnectTimeout.unref?.();
    }
}

/** The embedded store's channel: every notification is delivered in this process. */
class LocalChannel extends InMemoryNotificationChannel {
    deliverHere(notification: JobNotification): Promise<void> {
        return this.notifyHandlers(notification);
    }
}

/**
 * Logs the channel's trouble once per change of state, not once per try: the first error of an
 * outage (a warning, with the error), then one line when it is connected again.
 */
const logChannel = (channel: NotificationChannel, log: Logger): void => {
    const emitter = channel as unknown as NodeJS.EventEmitter;
    let down = false;
    emitter.on('error', (err: Error) => {
        if (down) {
            return;
        }

        down = true;
        log.warn({ err: { message: err.message, code: (err as { code?: unknown }).code } }, 'job notification channel error: reconnecting in the background');
    });
    emitter.on('stateChange', (state: string) => {
        if (state === 'connected' && down) {
            down = false;
            log.info('job notification channel connected again');
        }
    });
};

export const createRunQueue = (options: { embedded: boolean; pool: pg.Pool; log: Logger }): RunQueue => {
    const wakes = new DrainWakes();
    const channel = options.embedded ? new LocalChannel() : new BackingOffChannel(options.pool, wakes);
    // The channel is an EventEmitter: an unhandled 'error' would end the process.
    logChannel(channel, options.log);

    const notification = (jobId: string, jobName: string): JobNotification => {
        const at = new Date();
        return { jobId: toJobId(jobId), jobName, nextRunAt: at, priority: 0, timestamp: at };
    };

    return {
        channel,
        wakes,
        local: new Map(),
        drains: new ActiveDrains(),
        stuck: null,
        announce(jobId, jobName) {
            if (channel.state !== 'connected') {
                return;
            }

            channel.publish(notification(jobId, jobName)).catch((err: Error) => {
                options.log.warn({ err, jobId }, 'could not announce a job; a worker will find it at its next poll');
            });
        },
        announceHere(jobName) {
            channel.deliverHere(notification('next', jobName)).catch((err: Error) => {
                options.log.warn({ err, jobName }, 'could not look for the next job; the next poll will');
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
