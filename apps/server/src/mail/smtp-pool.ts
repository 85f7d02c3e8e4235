import Net from 'node:net';
import { PassThrough } from 'node:stream';

import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

import { type TextMail, textComposer } from './compose.js';
import { RelayState, type RelayStateOptions } from './relay-state.js';
import { type RetryPolicy, retrying } from './retry.js';
import { isReply, type SmtpFailure, smtpError } from './smtp-errors.js';

// A pool of nodemailer SMTP connections used directly, one message at a time each. Nodemailer's own
// pooled transport routes every message through its Mailer pipeline and a queue. Measured in one
// process against a loopback sink, 2,000 messages 8 at a time: this pool 468/s vs nodemailer's
// pooled transport 118/s (313/s with TCP_NODELAY on its sockets); again later on a machine under
// heavy load, 143-412/s vs 42-49/s (45-46/s with TCP_NODELAY). A run's OUTPUT node spends most of
// its time here, so this stays. The protocol is still nodemailer's SMTPConnection; what this file
// adds is that every exchange settles (see `exchange`) and that a refused message keeps its connection.

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
}

interface Pooled {
    conn: SMTPConnection;
    socket: Net.Socket;
    /** Connections opened before the relay's last 421 are replaced, not reused: it may have changed its policy. */
    generation: number;
    messages: number;
    broken: boolean;
    discarded: boolean;
    idleTimer: NodeJS.Timeout | null;
    /** Fails the exchange under way, if any: the connection reported an error or closed. */
    interrupt: ((err: Error) => void) | null;
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

const aborted = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new Error('the send was cancelled'));

export class SmtpPool {
    private readonly options: SMTPConnection.Options;
    private readonly idle: Pooled[] = [];
    private readonly waiters: ((handed: Pooled | Error) => void)[] = [];
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
    }

    /** Resolves once the server accepted the message; the Message-ID stays the same over retries. */
    async send(message: TextMail, options: PoolSendOptions = {}): Promise<{ messageId: string }> {
        const { after, signal, retry, onTransmit, onRefused } = options;
        const { envelope, messageId, raw: built } = await this.compose(message);
        const raw = () => (after ? gated(after, built) : built);
        let unanswered = false;
        /** Time spent waiting for the relay to come back: no part of this message's own retry window. */
        let paused = 0;
        const attempt = async () => {
            for (;;) {
                const waited = Date.now();
                const admitted = await this.relay.admit(signal, Boolean(retry));
                paused += Date.now() - waited;
                const started = Date.now();
                let transmitted = false;
                const gate = async () => {
                    await onTransmit?.({ again: unanswered });
                    transmitted = true;
                };
                try {
                    await this.attempt(envelope, raw, signal, gate);
                    this.relay.succeeded();
                    return;
                } catch (err) {
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
        await (retry ? retrying(attempt, retry, signal, () => paused) : attempt());
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

    private async attempt(envelope: SMTPConnection.Envelope, raw: () => Buffer | PassThrough, signal?: AbortSignal, onTransmit?: () => void | Promise<void>): Promise<void> {
        const first = await this.acquireFor(signal, false, onTransmit);
        const reused = first.messages > 0;
        const heard = first.socket.bytesRead;
        try {
            await this.transmit(first, envelope, raw(), signal);
            return;
        } catch (err) {
            await this.afterFailure(first, err);
            // A reused connection the server had just closed fails without a word from the server, so
            // the message cannot have been accepted: try again on a fresh one at once.
            if (!reused || signal?.aborted || isReply(err) || first.socket.bytesRead !== heard) {
                throw err;
            }
        } finally {
            this.release(first);
        }

        const second = await this.acquireFor(signal, true, onTransmit);
        try {
            await this.transmit(second, envelope, raw(), signal);
        } catch (err) {
            await this.afterFailure(second, err);
            throw err;
        } finally {
            this.release(second);
        }
    }

    /** A connection for one message, once `onTransmit` let it go out; if it throws, the connection stays usable. */
    private async acquireFor(signal: AbortSignal | undefined, fresh: boolean, onTransmit?: () => void | Promise<void>): Promise<Pooled> {
        const pooled = await this.acquire(signal, fresh);
        try {
            await onTransmit?.();
        } catch (err) {
            this.release(pooled);
            throw err;
        }

        return pooled;
    }

    /** A refused message leaves a usable connection once the transaction is reset; anything else does not. */
    private async afterFailure(pooled: Pooled, err: unknown): Promise<void> {
        if (pooled.broken || !isReply(err)) {
            pooled.broken = true;
            return;
        }

        await this.exchange(pooled, 'RSET', undefined, (done) => pooled.conn.reset(done)).catch(() => {
            pooled.broken = true;
        });
    }

    private transmit(pooled: Pooled, envelope: SMTPConnection.Envelope, raw: Buffer | PassThrough, signal?: AbortSignal): Promise<void> {
        return this.exchange(
            pooled,
            'the message',
            signal,
            (done) =>
                pooled.conn.send(envelope, raw, (err) => {
                    pooled.messages++;
                    done(err);
                }),
            this.dataTimeoutMs
        );
    }

    /**
     * Runs one SMTP exchange and settles on whichever comes first: its callback, an error or end of
     * the connection (nodemailer reports a socket closed mid-transaction only as an event), the
     * deadline, or an abort. The last three leave the connection broken.
     */
    private exchange(
        pooled: Pooled,
        what: string,
        signal: AbortSignal | undefined,
        start: (done: (err?: Error | null) => void) => void,
        timeoutMs = this.timeoutMs
    ): Promise<void> {
        if (signal?.aborted) {
            return Promise.reject(aborted(signal));
        }

        return new Promise((resolve, reject) => {
            let settled = false;
            const settle = (err?: Error | null, broken = false) => {
                if (settled) {
                    return;
                }

                settled = true;
                clearTimeout(timer);
                signal?.removeEventListener('abort', onAbort);
                pooled.interrupt = null;
                if (broken) {
                    pooled.broken = true;
                    pooled.conn.close();
                }

                if (err) {
                    reject(err);
                } else {
                    resolve();
                }
            };

            const timer = setTimeout(() => settle(smtpError(`the SMTP server did not finish ${what} within ${timeoutMs} ms`, 'ETIMEDOUT'), true), timeoutMs);
            const onAbort = () => settle(aborted(signal as AbortSignal), true);
            signal?.addEventListener('abort', onAbort, { once: true });
            pooled.interrupt = (err) => settle(err, true);
            start((err) => settle(err));
        });
    }

    private async acquire(signal?: AbortSignal, fresh = false): Promise<Pooled> {
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
            return this.waitForConnection(signal);
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

    private waitForConnection(signal?: AbortSignal): Promise<Pooled> {
        return new Promise((resolve, reject) => {
            const onAbort = () => {
                const at = this.waiters.indexOf(waiter);
                if (at !== -1) {
                    this.waiters.splice(at, 1);
                }

                reject(aborted(signal as AbortSignal));
            };
            const waiter = (handed: Pooled | Error) => {
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

        this.acquire().then(waiter, (err: Error) => waiter(err));
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

    /**
     * Opens, greets (and logs in to) one server connection, all within the deadline. The socket has
     * Nagle's algorithm off: otherwise each message's last packet waits for the server's delayed
     * ACK, 40 ms on Linux.
     */
    private async connect(signal?: AbortSignal): Promise<Pooled> {
        // Failing to open a connection is the relay's failure, not a message's (relay-state.ts).
        const socket = await this.openSocket(signal).catch((err: Error) => {
            throw Object.assign(err, { opening: true });
        });
        const conn = new SMTPConnection({ ...this.options, connection: socket });
        const pooled: Pooled = { conn, socket, generation: this.generation, messages: 0, broken: false, discarded: false, idleTimer: null, interrupt: null };
        conn.on('error', (err: Error) => this.lost(pooled, err));
        conn.on('end', () => this.lost(pooled, smtpError('the SMTP server closed the connection', 'ECONNECTION')));
        try {
            await this.exchange(pooled, 'its greeting', signal, (done) => conn.connect(done));
            if (this.options.auth) {
                await this.exchange(pooled, 'the login', signal, (done) => conn.login(this.options.auth as SMTPConnection.Credentials, done));
            }
        } catch (err) {
            conn.close();
            throw Object.assign(err as Error, { opening: true });
        }

        return pooled;
    }

    private openSocket(signal?: AbortSignal): Promise<Net.Socket> {
        const secure = Boolean(this.options.secure);
        const port = Number(this.options.port) || (secure ? 465 : 587);
        const host = this.options.host ?? 'localhost';
        return new Promise((resolve, reject) => {
            // Not Net.connect's own `signal`: it would stay attached to a socket the pool keeps.
            const socket = Net.connect({ host, port, noDelay: true });
            const onAbort = () => socket.destroy(aborted(signal as AbortSignal));
            signal?.addEventListener('abort', onAbort, { once: true });
            socket.setTimeout(this.timeoutMs, () => socket.destroy(smtpError(`SMTP connection to ${host}:${port} timed out`, 'ETIMEDOUT')));
            socket.once('error', (err) => {
                signal?.removeEventListener('abort', onAbort);
                reject(err);
            });
            socket.once('connect', () => {
                signal?.removeEventListener('abort', onAbort);
                socket.removeAllListeners('error');
                socket.setTimeout(0);
                resolve(socket);
            });
            if (signal?.aborted) {
                onAbort();
            }
        });
    }
}
