import Net from 'node:net';
import { PassThrough } from 'node:stream';

import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

import { type TextMail, textComposer } from './compose.js';

// A pool of nodemailer SMTP connections used directly, one message at a time each. Nodemailer's own
// pooled transport routes every message through its Mailer pipeline and a queue, which costs about
// 1.5 ms of CPU per message here: most of what a run's OUTPUT node may spend per e-mail. The
// protocol is still nodemailer's SMTPConnection.

export interface SmtpPoolOptions {
    maxConnections?: number;
    /** A connection is replaced after this many messages. */
    maxMessages?: number;
    /** An idle connection is closed after this long, before servers drop it themselves. */
    idleMs?: number;
}

interface Pooled {
    conn: SMTPConnection;
    messages: number;
    broken: boolean;
    idleTimer: NodeJS.Timeout | null;
}

const CONNECT_TIMEOUT_MS = 30_000;

/** An SMTP error that happened before the message data was sent: retrying it cannot send twice. */
const failedBeforeData = (err: SMTPConnection.SMTPError): boolean =>
    err.responseCode === undefined && (err.command === 'CONN' || err.command === 'MAIL FROM' || err.code === 'ECONNRESET' || err.code === 'EPIPE');

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
    private readonly waiters: ((handed: Pooled | Error) => void)[] = [];
    private open = 0;
    private closed = false;
    private readonly maxConnections: number;
    private readonly maxMessages: number;
    private readonly idleMs: number;

    private readonly compose: ReturnType<typeof textComposer>;

    constructor(url: string, from: string, options: SmtpPoolOptions = {}) {
        this.compose = textComposer(from);
        const { pool: _pool, maxConnections: _max, maxMessages: _messages, ...connection } = parseConnectionUrl(url) as SMTPConnection.Options & Record<string, unknown>;
        this.options = connection;
        this.maxConnections = options.maxConnections ?? 5;
        this.maxMessages = options.maxMessages ?? 1000;
        this.idleMs = options.idleMs ?? 30_000;
    }

    /**
     * Resolves once the server accepted the message. With `after`, the envelope goes out at once but
     * the message data only once `after` resolves (and never if it rejects), so the server cannot
     * accept the message earlier.
     */
    async send(message: TextMail, after?: Promise<unknown>): Promise<{ messageId: string }> {
        const { envelope, messageId, raw: built } = await this.compose(message);
        const raw = () => (after ? gated(after, built) : built);

        const first = await this.acquire();
        const reused = first.messages > 0;
        try {
            await this.transmit(first, envelope, raw());
            return { messageId };
        } catch (err) {
            first.broken = true;
            // A reused connection the server had closed fails at once: try again on a fresh one.
            if (!reused || !failedBeforeData(err as SMTPConnection.SMTPError)) {
                throw err;
            }
        } finally {
            this.release(first);
        }

        const second = await this.acquire(true);
        try {
            await this.transmit(second, envelope, raw());
            return { messageId };
        } catch (err) {
            second.broken = true;
            throw err;
        } finally {
            this.release(second);
        }
    }

    close(): void {
        this.closed = true;
        for (const pooled of this.idle.splice(0)) {
            this.discard(pooled);
        }

        for (const wake of this.waiters.splice(0)) {
            wake(new Error('the mailer is closed'));
        }
    }

    private transmit(pooled: Pooled, envelope: SMTPConnection.Envelope, raw: Buffer | PassThrough): Promise<void> {
        return new Promise((resolve, reject) => {
            pooled.conn.send(envelope, raw, (err) => {
                pooled.messages++;
                if (err) {
                    reject(err);
                } else {
                    resolve();
                }
            });
        });
    }

    private async acquire(fresh = false): Promise<Pooled> {
        if (this.closed) {
            throw new Error('the mailer is closed');
        }

        const reused = fresh ? undefined : this.idle.pop();
        if (reused) {
            if (reused.idleTimer) {
                clearTimeout(reused.idleTimer);
                reused.idleTimer = null;
            }

            return reused;
        }

        if (this.open >= this.maxConnections) {
            const handed = await new Promise<Pooled | Error>((resolve) => this.waiters.push(resolve));
            if (handed instanceof Error) {
                throw handed;
            }

            return handed;
        }

        this.open++;
        try {
            return { conn: await this.connect(), messages: 0, broken: false, idleTimer: null };
        } catch (err) {
            this.open--;
            this.wakeOne();
            throw err;
        }
    }

    private release(pooled: Pooled): void {
        if (pooled.broken || this.closed || pooled.messages >= this.maxMessages) {
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
        if (pooled.idleTimer) {
            clearTimeout(pooled.idleTimer);
        }

        if (!pooled.conn.destroyed) {
            pooled.conn.quit();
        }

        this.open--;
    }

    /**
     * Opens and greets (and logs in to) one server connection. The socket has Nagle's algorithm off:
     * otherwise each message's last packet waits for the server's delayed ACK, 40 ms on Linux.
     */
    private connect(): Promise<SMTPConnection> {
        const secure = Boolean(this.options.secure);
        const port = Number(this.options.port) || (secure ? 465 : 587);
        const host = this.options.host ?? 'localhost';
        return new Promise((resolve, reject) => {
            const socket = Net.connect({ host, port, noDelay: true });
            socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error(`SMTP connection to ${host}:${port} timed out`)));
            socket.once('error', reject);
            socket.once('connect', () => {
                socket.off('error', reject);
                socket.setTimeout(0);
                const conn = new SMTPConnection({ ...this.options, connection: socket });
                // Errors also reach the callbacks; without a listener an idle connection's error would crash the process.
                conn.on('error', () => {});
                conn.on('end', () => {
                    const at = this.idle.findIndex((pooled) => pooled.conn === conn);
                    if (at !== -1) {
                        this.discard(this.idle.splice(at, 1)[0] as Pooled);
                    }
                });
                conn.connect((err) => {
                    if (err) {
                        conn.close();
                        reject(err);
                    } else if (this.options.auth) {
                        conn.login(this.options.auth as SMTPConnection.Credentials, (loginErr) => {
                            if (loginErr) {
                                conn.close();
                                reject(loginErr);
                            } else {
                                resolve(conn);
                            }
                        });
                    } else {
                        resolve(conn);
                    }
                });
            });
        });
    }
}
