import Net from 'node:net';
import type { PassThrough } from 'node:stream';

import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

import { isReply, smtpError } from './smtp-errors.js';

// One connection of the pool (smtp-pool.ts): opening it (socket, greeting, login) and the SMTP
// exchanges on it. What this adds to nodemailer's SMTPConnection is that every exchange settles
// (see `exchange`) and that a refused message keeps its connection (see `afterFailure`). Which
// connection a message gets, and when one is closed, is the pool's business.

export interface Pooled {
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

export interface OpenOptions {
    /** nodemailer's connection options (host, port, secure, auth, name). */
    options: SMTPConnection.Options;
    /** How long opening the connection, or a command's reply, may take. */
    timeoutMs: number;
    /** The pool's generation, read once the socket is open (see Pooled.generation). */
    generation: () => number;
    signal?: AbortSignal;
    /** The connection failed or closed, at any time after it was opened. */
    onLost: (pooled: Pooled, err: Error) => void;
}

export const aborted = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new Error('the send was cancelled'));

/**
 * Runs one SMTP exchange and settles on whichever comes first: its callback, an error or end of
 * the connection (nodemailer reports a socket closed mid-transaction only as an event), the
 * deadline, or an abort. The last three leave the connection broken.
 */
export const exchange = (
    pooled: Pooled,
    what: string,
    signal: AbortSignal | undefined,
    start: (done: (err?: Error | null) => void) => void,
    timeoutMs: number
): Promise<void> => {
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
};

/** Sends one message, up to the reply to the end of its data, within `dataTimeoutMs`. */
export const transmit = (pooled: Pooled, envelope: SMTPConnection.Envelope, raw: Buffer | PassThrough, signal: AbortSignal | undefined, dataTimeoutMs: number): Promise<void> =>
    exchange(
        pooled,
        'the message',
        signal,
        (done) =>
            pooled.conn.send(envelope, raw, (err) => {
                pooled.messages++;
                done(err);
            }),
        dataTimeoutMs
    );

/** A refused message leaves a usable connection once the transaction is reset; anything else does not. */
export const afterFailure = async (pooled: Pooled, err: unknown, timeoutMs: number): Promise<void> => {
    if (pooled.broken || !isReply(err)) {
        pooled.broken = true;
        return;
    }

    await exchange(pooled, 'RSET', undefined, (done) => pooled.conn.reset(done), timeoutMs).catch(() => {
        pooled.broken = true;
    });
};

const openSocket = (options: SMTPConnection.Options, timeoutMs: number, signal?: AbortSignal): Promise<Net.Socket> => {
    const secure = Boolean(options.secure);
    const port = Number(options.port) || (secure ? 465 : 587);
    const host = options.host ?? 'localhost';
    return new Promise((resolve, reject) => {
        // Not Net.connect's own `signal`: it would stay attached to a socket the pool keeps.
        const socket = Net.connect({ host, port, noDelay: true });
        const onAbort = () => socket.destroy(aborted(signal as AbortSignal));
        signal?.addEventListener('abort', onAbort, { once: true });
        socket.setTimeout(timeoutMs, () => socket.destroy(smtpError(`SMTP connection to ${host}:${port} timed out`, 'ETIMEDOUT')));
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
};

/**
 * Opens, greets (and logs in to) one server connection, all within the deadline. The socket has
 * Nagle's algorithm off: otherwise each message's last packet waits for the server's delayed
 * ACK, 40 ms on Linux.
 */
export const openConnection = async ({ options, timeoutMs, generation, signal, onLost }: OpenOptions): Promise<Pooled> => {
    // Failing to open a connection is the relay's failure, not a message's (relay-state.ts).
    const socket = await openSocket(options, timeoutMs, signal).catch((err: Error) => {
        throw Object.assign(err, { opening: true });
    });
    const conn = new SMTPConnection({ ...options, connection: socket });
    const pooled: Pooled = { conn, socket, generation: generation(), messages: 0, broken: false, discarded: false, idleTimer: null, interrupt: null };
    conn.on('error', (err: Error) => onLost(pooled, err));
    conn.on('end', () => onLost(pooled, smtpError('the SMTP server closed the connection', 'ECONNECTION')));
    try {
        await exchange(pooled, 'its greeting', signal, (done) => conn.connect(done), timeoutMs);
        if (options.auth) {
            await exchange(pooled, 'the login', signal, (done) => conn.login(options.auth as SMTPConnection.Credentials, done), timeoutMs);
        }
    } catch (err) {
        conn.close();
        throw Object.assign(err as Error, { opening: true });
    }

    return pooled;
};
