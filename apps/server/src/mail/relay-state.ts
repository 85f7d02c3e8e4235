import { EventEmitter } from 'node:events';

import { isTemporary, type SmtpFailure } from './smtp-errors.js';

// Whether the relay as a whole takes mail. A relay that cannot be reached, that answers 421 (closing
// the service), or that refuses the sender (4xx at MAIL FROM) or every recipient in turn with 4xx is
// down: no single message is at fault. Sending then pauses as a whole: messages wait here instead of
// spending their own retry windows (with Postfix stopped 150 s, the e-mails in flight used theirs up
// and failed while later rows went through), and one message at a time probes the relay, with
// backoff. The first one accepted brings every waiting message back. Only once the relay has been
// down longer than `giveUpMs` do the waiting messages fail, with an error saying since when and what
// the relay last answered; while it stays down, later messages fail at once, but one probe per
// backoff still goes through so that sending resumes by itself.

export type RelayCondition = 'up' | 'down';

export interface RelaySnapshot {
    condition: RelayCondition;
    /** When it went down (null while up). */
    since: Date | null;
    /** The relay's last reply or the connection error, as a line. */
    lastReply: string | null;
    /** When the next probe may start (null while up). */
    nextTryAt: Date | null;
}

export interface RelayStateOptions {
    /** Down this long: waiting messages fail (SMTP_RETRY_FOR_MS). */
    giveUpMs: number;
    /** The first wait between probes; it doubles up to MAX_PROBE_DELAY_MS (SMTP_RETRY_DELAY_MS). */
    probeDelayMs: number;
    /** Failures in a row of different messages, none accepted between, that mean a relay refusing everything with 4xx. */
    storm: number;
}

/**
 * The longest wait between probes, and so the longest sending stays idle once the relay answers
 * again: users expect it to resume within a couple of seconds. (It was 15 s: after a long outage a
 * run sat idle up to that long with the relay back.) One probe is one message on one connection, so
 * a down relay sees at most one connection attempt per 2 s from each worker: a refused connect costs
 * it nothing, a relay answering 421 one short session. A longer SMTP_RETRY_DELAY_MS still wins.
 */
const MAX_PROBE_DELAY_MS = 2000;
const CONNECTION = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** The relay stopped taking mail for this long: the message was not sent and may be sent later. */
export class RelayDownError extends Error {
    readonly code = 'ERELAYDOWN';
    constructor(snapshot: RelaySnapshot) {
        super(`the mail relay has not taken mail since ${snapshot.since?.toISOString()} (last reply: ${snapshot.lastReply ?? 'none'}); not sent, retry the run once it is back`);
    }
}

export const describeFailure = (err: unknown): string => {
    const { response, code } = (err ?? {}) as SmtpFailure;
    return (response ?? (err instanceof Error ? err.message : String(err))).split('\n')[0] + (code && !response ? ` (${code})` : '');
};

/**
 * A failure that says nothing of one message: no connection could be opened (the pool marks those
 * `opening`), a 421, or a 4xx to the sender. A connection lost under way is one message's trouble
 * until it happens to many in a row (`storm`).
 */
export const isRelayFailure = (err: unknown): boolean => {
    const { code, responseCode, command, opening } = (err ?? {}) as SmtpFailure & { command?: string; opening?: boolean };
    if (responseCode === 421) {
        return true;
    }

    if (typeof responseCode === 'number') {
        return responseCode >= 400 && responseCode < 500 && (command === 'MAIL FROM' || opening === true);
    }

    return code !== undefined && CONNECTION.has(code) && opening === true;
};

/** A message let through by admit(): `epoch` for failed(); `probe`, it is the one probing a relay that is down. */
export interface Admission {
    epoch: number;
    probe: boolean;
}

/**
 * A message admitted while the relay was up that would open a new connection once it is unreachable (it
 * waited for a free one): it goes back to wait instead, as only the probe opens connections then.
 */
export class RelayPausedError extends Error {
    readonly code = 'ERELAYPAUSED';
}

export class RelayState extends EventEmitter {
    private condition: RelayCondition = 'up';
    private since: Date | null = null;
    private lastReply: string | null = null;
    private nextTryAt = 0;
    private lastFailureAt = 0;
    private probeDelay: number;
    private probing = false;
    private failuresInARow = 0;
    /** The last failure recorded was a reply to a message (4xx in a row), not one of the relay's. */
    private downForReplies = false;
    /** Counts the relay's returns: an attempt let through before the last one says nothing of now. */
    private epoch = 0;
    private readonly waiters = new Set<() => void>();
    private timer: NodeJS.Timeout | null = null;

    constructor(private readonly options: RelayStateOptions) {
        super();
        this.probeDelay = options.probeDelayMs;
    }

    snapshot(): RelaySnapshot {
        const down = this.condition === 'down';
        return { condition: this.condition, since: this.since, lastReply: this.lastReply, nextTryAt: down ? new Date(Math.max(this.nextTryAt, Date.now())) : null };
    }

    /**
     * Resolves when a message may be tried: at once while the relay is up; while it is down, when this
     * one is to probe it. Rejects with RelayDownError once the relay has been down past giveUpMs and
     * has failed since `startedAt` (when the message's batch, a run, began sending): a batch begun
     * after that failure (a retry started once the relay is back) waits for the next probe instead of
     * failing untried. `succeeded` or `failed` must be called after the attempt by whoever got through.
     */
    async admit(signal?: AbortSignal, wait = true, startedAt = Number.NEGATIVE_INFINITY): Promise<Admission> {
        for (;;) {
            signal?.throwIfAborted();
            if (this.condition === 'up') {
                return { epoch: this.epoch, probe: false };
            }

            if (!this.probing && Date.now() >= this.dueAt()) {
                this.probing = true;
                return { epoch: this.epoch, probe: true };
            }

            // A message that may not wait (a sign-in code a request waits for) fails at once; so do
            // those past the limit, unless a probe is under way: its answer decides for them too.
            if (!wait) {
                throw new RelayDownError(this.snapshot());
            }

            if (this.givenUp() && !this.probing) {
                if (this.lastFailureAt >= startedAt) {
                    throw new RelayDownError(this.snapshot());
                }

                // Past the limit the timer no longer runs by itself: it wakes this one when its probe is due.
                if (!this.timer) {
                    this.schedule();
                }
            }

            await this.wait(signal);
        }
    }

    /** The message was accepted: the relay is up. */
    succeeded(): void {
        this.emit('reply', '2xx');
        this.failuresInARow = 0;
        this.probing = false;
        this.cameBack();
    }

    private cameBack(): void {
        if (this.condition === 'down') {
            const downFor = Date.now() - (this.since?.getTime() ?? Date.now());
            this.condition = 'up';
            this.epoch++;
            this.since = null;
            this.probeDelay = this.options.probeDelayMs;
            this.emit('change', { ...this.snapshot(), downForMs: downFor, lastReply: this.lastReply });
            this.wakeAll();
        }
    }

    /**
     * The attempt failed. Returns true when the failure is the relay's (see above), so that it costs
     * the message none of its own attempts: it waits in `admit` again.
     */
    failed(err: unknown, admitted = this.epoch): boolean {
        const { responseCode } = (err ?? {}) as SmtpFailure;
        this.emit('reply', typeof responseCode === 'number' ? `${Math.floor(responseCode / 100)}xx` : 'none');
        const relay = isRelayFailure(err);
        // Begun while the relay was down (a connection opened then), it fails late: try again, it is back.
        if (relay && admitted < this.epoch && this.condition === 'up') {
            return true;
        }

        const temporary = relay || isTemporary(err);
        this.failuresInARow = temporary ? this.failuresInARow + 1 : 0;
        const wasProbe = this.probing;
        this.probing = false;
        // A probe answered past MAIL FROM (its recipient greylisted, say) says the relay takes mail again,
        // and the trouble is this message's own; unless such answers are what it was last down for.
        if (wasProbe && this.condition === 'down' && !relay && typeof responseCode === 'number' && !this.downForReplies) {
            this.cameBack();
            return false;
        }

        if (!relay && !(temporary && (this.failuresInARow >= this.options.storm || (wasProbe && this.condition === 'down')))) {
            if (wasProbe) {
                this.wakeAll();
            }

            return false;
        }

        this.lastReply = describeFailure(err);
        this.lastFailureAt = Date.now();
        this.downForReplies = !relay;
        if (wasProbe) {
            this.emit('probe', this.lastReply);
        }

        if (this.condition === 'up') {
            this.condition = 'down';
            this.since = new Date();
            this.probeDelay = this.options.probeDelayMs;
            this.nextTryAt = Date.now() + this.probeDelay;
            this.emit('change', this.snapshot());
        } else if (wasProbe) {
            this.probeDelay = Math.min(this.probeDelay * 2, Math.max(MAX_PROBE_DELAY_MS, this.options.probeDelayMs));
            this.nextTryAt = Date.now() + this.probeDelay;
        }

        this.schedule();
        // Those waiting on this probe's answer (past the limit) decide now.
        if (wasProbe) {
            this.wakeAll();
        }

        return true;
    }

    /**
     * When the next probe may start. Past the limit, without backoff: messages no longer wait for
     * it, and a run started once the relay is back (a retry) should find it back at once.
     */
    private dueAt(): number {
        return this.givenUp() ? Math.min(this.nextTryAt, this.lastFailureAt + this.options.probeDelayMs) : this.nextTryAt;
    }

    /** Down for failures of the relay's own (no connection, no greeting, 421), not for replies to messages. */
    get unreachable(): boolean {
        return this.condition === 'down' && !this.downForReplies;
    }

    /** Whether messages waiting now fail: down past giveUpMs. */
    givenUp(): boolean {
        return this.condition === 'down' && this.since !== null && Date.now() - this.since.getTime() >= this.options.giveUpMs;
    }

    close(): void {
        if (this.timer) {
            clearTimeout(this.timer);
        }

        this.wakeAll();
    }

    /** Wakes the waiters when the next probe is due, or when they are to give up. */
    private schedule(): void {
        if (this.timer) {
            clearTimeout(this.timer);
        }

        const giveUpAt = (this.since?.getTime() ?? Date.now()) + this.options.giveUpMs;
        const at = Date.now() < giveUpAt ? Math.min(this.nextTryAt, giveUpAt) : this.dueAt();
        this.timer = setTimeout(() => {
            this.timer = null;
            this.wakeAll();
            if (this.condition === 'down' && !this.givenUp()) {
                this.schedule();
            }
        }, Math.max(0, at - Date.now()));
        this.timer.unref();
    }

    private wait(signal?: AbortSignal): Promise<void> {
        return new Promise((resolve) => {
            const done = () => {
                this.waiters.delete(done);
                signal?.removeEventListener('abort', done);
                resolve();
            };
            this.waiters.add(done);
            signal?.addEventListener('abort', done, { once: true });
        });
    }

    private wakeAll(): void {
        for (const wake of [...this.waiters]) {
            wake();
        }
    }
}
