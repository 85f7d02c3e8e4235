import { PassThrough } from 'node:stream';

import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

import { type TextMail, textComposer } from './compose.js';
import { aborted, afterFailure, openConnection, type Pooled, transmit } from './pooled-connection.js';
import { RelayPausedError, RelayState, type RelayStateOptions } from './relay-state.js';
import { type RetryPolicy, retrying } from './retry.js';
import { isReply, type SmtpFailure } from './smtp-errors.js';

// A pool of nodemailer SMTP connections used directly, one message at a time each. Nodemailer's own
// pooled transport routes every message through its Mailer pipeline and a queue. Measured in one
// process against a loopback sink, 2,000 messages 8 at a time: this pool 468/s vs nodemailer's
// pooled transport 118/s (313/s with TCP_NODELAY on its sockets); again later on a machine under
// heavy load, 143-412/s vs 42-49/s (45-46/s with TCP_NODELAY). A run's OUTPUT node spends most of
// its time here, so this stays. The protocol is still nodemailer's SMTPConnection, on connections
// opened and used as pooled-connection.ts says; this file shares them out and sends each message,
// pausing while the relay is down (relay-state.ts) and retrying under a policy (retry.ts).

export interface SmtpPoolOptions {
    maxConnections?: number;
    /** A connection is replaced after this many messages. */
    maxMessages?: number;
    /** An idle connection is closed after this long, before servers drop it themselves. */
    idleMs?: number;
    /** How long opening a connection, or a command's reply, may take. */
    timeoutMs?: number;
    /**
     * How long a message's transaction may take, up to the reply to the end of its data. Its outcome
     * is unknown when this runs out, and a retry may deliver it twice: wait as RFC 5321 says.
     */
    dataTimeoutMs?: number;
    /** The name given in EHLO (see helo.ts). */
    name?: string;
    /** When the relay as a whole counts as down, and how long sending waits for it (see relay-state.ts). */
    relay?: Partial<RelayStateOptions>;
}

export interface PoolSendOptions {
    /**
     * The envelope goes out at once but the message data only once this resolves (and never if it
     * rejects), so the server cannot accept the message earlier.
     */
    after?: Promise<unknown>;
    /** Aborting fails the send at once, closing its connection if the message was under way. */
    signal?: AbortSignal;
    /** Temporary failures are tried again under this policy; without it a send is tried once. */
    retry?: RetryPolicy;
    /**
     * Called when the message has a connection, just before it goes out; if it throws, the message
     * does not. `again`: an earlier attempt went out and ended without an answer from the server (a
     * timeout, a dropped connection), so it may have been accepted and this copy may be a duplicate.
     */
    onTransmit?: (info: { again: boolean }) => void | Promise<void>;
    /** Called when an attempt that went out was answered with a refusal: that copy was not accepted. */
    onRefused?: () => void;
    /** When the message's batch (a run) began sending: see RelayState.admit. */
    startedAt?: number;
}

/** A stream that yields `data` once `after` resolves, and fails if it rejects. */
const gated = (after: Promise<unknown>, data: Buffer): PassThrough => {
    const stream = new PassThrough();
    after.then(
        () => stream.end(data),
        (err: Error) => stream.destroy(err)
    );
    return stream;
};

export class SmtpPool {
    private readonly options: SMTPConnection.Options;
    private readonly idle: Pooled[] = [];
    /** Messages waiting for a connection; `probe`: the one probing a relay that is down. */
    private readonly waiters: (((handed: Pooled | Error) => void) & { probe: boolean })[] = [];
    private open = 0;
    private closed = false;
    private readonly maxConnections: number;
    private readonly maxMessages: number;
    private readonly idleMs: number;
    private readonly timeoutMs: number;
    private readonly dataTimeoutMs: number;

    private readonly compose: ReturnType<typeof textComposer>;
    readonly relay: RelayState;
    private generation = 0;

    constructor(url: string, from: string, options: SmtpPoolOptions = {}) {
        this.compose = textComposer(from);
        const { pool: _pool, maxConnections: _max, maxMessages: _messages, ...connection } = parseConnectionUrl(url) as SMTPConnection.Options & Record<string, unknown>;
        this.options = options.name ? { ...connection, name: options.name } : connection;
        this.maxConnections = options.maxConnections ?? 5;
        this.maxMessages = options.maxMessages ?? 1000;
        this.idleMs = options.idleMs ?? 30_000;
        this.timeoutMs = options.timeoutMs ?? 300_000;
        this.dataTimeoutMs = options.dataTimeoutMs ?? 600_000;
        this.relay = new RelayState({ giveUpMs: 120_000, probeDelayMs: 1000, storm: Math.max(4, 2 * this.maxConnections), ...options.relay });
        // Those waiting for a connection when the relay becomes unreachable wait for the relay instead (see
        // acquire). A relay down for its replies (4xx in a row) still hands them the connections it keeps.
        this.relay.on('change', () => {
            if (this.relay.unreachable) {
                for (const waiter of this.waiters.filter((w) => !w.probe)) {
                    this.waiters.splice(this.waiters.indexOf(waiter), 1);
                    waiter(new RelayPausedError('the mail relay is down: wait for its probe'));
                }
            }
        });
    }

    /**
     * Resolves once the server accepted the message; the Message-ID stays the same over retries. A
     * failure after a copy went out and no answer to it was read has `unanswered: true`: it may have arrived.
     */
    async send(message: TextMail, options: PoolSendOptions = {}): Promise<{ messageId: string }> {
        const { after, signal, retry, onTransmit, onRefused, startedAt } = options;
        const { envelope, messageId, raw: built } = await this.compose(message);
        const raw = () => (after ? gated(after, built) : built);
        let unanswered = false;
        /** Time spent waiting for the relay to come back: no part of this message's own retry window. */
        let paused = 0;
        const attempt = async () => {
            for (;;) {
                const waited = Date.now();
                const { epoch: admitted, probe } = await this.relay.admit(signal, Boolean(retry), startedAt);
                paused += Date.now() - waited;
                const started = Date.now();
                let transmitted = false;
                const gate = async () => {
                    await onTransmit?.({ again: unanswered });
                    transmitted = true;
                };
                try {
                    await this.attempt(envelope, raw, signal, gate, probe);
                    this.relay.succeeded();
                    return;
                } catch (err) {
                    // It waited for a connection while the relay went down: back to wait for the relay.
                    if (err instanceof RelayPausedError) {
                        paused += Date.now() - started;
                        continue;
                    }

                    // A refusal proves the copy was not accepted; anything else after it went out leaves it unknown.
                    if (transmitted && isReply(err)) {
                        onRefused?.();
                    } else if (transmitted) {
                        unanswered = true;
                    }

                    if ((err as SmtpFailure).responseCode === 421) {
                        this.generation++;
                    }

                    // The relay's failure, not this message's: it waits for the relay, its attempts untouched.
                    if (this.relay.failed(err, admitted) && retry && !signal?.aborted) {
                        paused += Date.now() - started;
                        continue;
                    }

                    throw err;
                }
            }
        };
        try {
            await (retry ? retrying(attempt, retry, signal, () => paused) : attempt());
        } catch (err) {
            // Whatever the last attempt met, a copy that went out unanswered may have been accepted.
            if (unanswered && err instanceof Error) {
                (err as Error & { unanswered?: boolean }).unanswered = true;
            }

            throw err;
        }

        return { messageId };
    }

    close(): void {
        this.closed = true;
        this.relay.close();
        for (const pooled of this.idle.splice(0)) {
            this.discard(pooled);
        }

        for (const wake of this.waiters.splice(0)) {
            wake(new Error('the mailer is closed'));
        }
    }

    private async attempt(
        envelope: SMTPConnection.Envelope,
        raw: () => Buffer | PassThrough,
        signal: AbortSignal | undefined,
        onTransmit: (() => void | Promise<void>) | undefined,
        probe: boolean
    ): Promise<void> {
        const first = await this.acquireFor(signal, false, onTransmit, probe);
        const reused = first.messages > 0;
        const heard = first.socket.bytesRead;
        try {
            await transmit(first, envelope, raw(), signal, this.dataTimeoutMs);
            return;
        } catch (err) {
            await afterFailure(first, err, this.timeoutMs);
            // A reused connection the server had just closed fails without a word from the server, so
            // the message cannot have been accepted: try again on a fresh one at once.
            if (!reused || signal?.aborted || isReply(err) || first.socket.bytesRead !== heard) {
                throw err;
            }
        } finally {
            this.release(first);
        }

        const second = await this.acquireFor(signal, true, onTransmit, probe);
        try {
            await transmit(second, envelope, raw(), signal, this.dataTimeoutMs);
        } catch (err) {
            await afterFailure(second, err, this.timeoutMs);
            throw err;
        } finally {
            this.release(second);
        }
    }

    /** A connection for one message, once `onTransmit` let it go out; if it throws, the connection stays usable. */
    private async acquireFor(signal: AbortSignal | undefined, fresh: boolean, onTransmit: (() => void | Promise<void>) | undefined, probe: boolean): Promise<Pooled> {
        const pooled = await this.acquire(signal, fresh, probe);
        try {
            await onTransmit?.();
        } catch (err) {
            this.release(pooled);
            throw err;
        }

        return pooled;
    }

    private async acquire(signal?: AbortSignal, fresh = false, probe = false): Promise<Pooled> {
        if (this.closed) {
            throw new Error('the mailer is closed');
        }

        let reused = fresh ? undefined : this.idle.pop();
        while (reused && reused.generation < this.generation) {
            this.discard(reused);
            reused = this.idle.pop();
        }

        if (reused) {
            if (reused.idleTimer) {
                clearTimeout(reused.idleTimer);
                reused.idleTimer = null;
            }

            return reused;
        }

        if (this.open >= this.maxConnections) {
            return this.waitForConnection(signal, probe);
        }

        // While the relay is unreachable only its probe opens connections: one that takes connections but
        // never greets held every message waiting for a connection a whole SMTP_SEND_TIMEOUT_MS each.
        if (this.relay.unreachable && !probe) {
            throw new RelayPausedError('the mail relay is down: wait for its probe');
        }

        this.open++;
        try {
            return await this.connect(signal);
        } catch (err) {
            this.open--;
            this.wakeOne();
            throw err;
        }
    }

    private waitForConnection(signal: AbortSignal | undefined, probe: boolean): Promise<Pooled> {
        return new Promise((resolve, reject) => {
            const onAbort = () => {
                const at = this.waiters.indexOf(waiter);
                if (at !== -1) {
                    this.waiters.splice(at, 1);
                }

                reject(aborted(signal as AbortSignal));
            };
            const handTo = (handed: Pooled | Error) => {
                signal?.removeEventListener('abort', onAbort);
                if (signal?.aborted && !(handed instanceof Error)) {
                    // Opened for this waiter after it gave up (see wakeOne): someone else may use it.
                    this.release(handed);
                } else if (handed instanceof Error) {
                    reject(handed);
                } else {
                    resolve(handed);
                }
            };
            const waiter = Object.assign(handTo, { probe });

            if (signal?.aborted) {
                reject(aborted(signal));
                return;
            }

            signal?.addEventListener('abort', onAbort, { once: true });
            this.waiters.push(waiter);
        });
    }

    private release(pooled: Pooled): void {
        if (pooled.broken || this.closed || pooled.messages >= this.maxMessages || pooled.generation < this.generation) {
            this.discard(pooled);
            this.wakeOne();
            return;
        }

        const waiter = this.waiters.shift();
        if (waiter) {
            waiter(pooled);
            return;
        }

        pooled.idleTimer = setTimeout(() => {
            const at = this.idle.indexOf(pooled);
            if (at !== -1) {
                this.idle.splice(at, 1);
                this.discard(pooled);
            }
        }, this.idleMs);
        pooled.idleTimer.unref();
        this.idle.push(pooled);
    }

    /** A waiter gets to open a connection of its own now that there is room. */
    private wakeOne(): void {
        const waiter = this.waiters.shift();
        if (!waiter) {
            return;
        }

        this.acquire(undefined, false, waiter.probe).then(waiter, (err: Error) => waiter(err));
    }

    private discard(pooled: Pooled): void {
        if (pooled.discarded) {
            return;
        }

        pooled.discarded = true;
        if (pooled.idleTimer) {
            clearTimeout(pooled.idleTimer);
        }

        if (pooled.broken) {
            pooled.conn.close();
        } else if (!pooled.conn.destroyed) {
            pooled.conn.quit();
        }

        this.open--;
    }

    /** A connection that failed or closed: the exchange under way fails, and an idle one leaves the pool. */
    private lost(pooled: Pooled, err: Error): void {
        pooled.broken = true;
        pooled.interrupt?.(err);
        const at = this.idle.indexOf(pooled);
        if (at !== -1) {
            this.idle.splice(at, 1);
            this.discard(pooled);
        }
    }

    private connect(signal?: AbortSignal): Promise<Pooled> {
        return openConnection({ options: this.options, timeoutMs: this.timeoutMs, generation: () => this.generation, signal, onLost: (pooled, err) => this.lost(pooled, err) });
    }
}
