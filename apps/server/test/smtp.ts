import Crypto from 'node:crypto';
import Fs from 'node:fs/promises';
import type { Server, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * Listens on a port below the kernel's ephemeral range, which it never hands out by itself (not to a
 * listen(0), nor as a connection's own port): while this relay is stopped (stop, down), no other
 * socket takes its port. Seen on a loaded CI machine: another test's SMTP server was given a stopped
 * relay's port, and a run meant to find the relay gone sent its e-mails there.
 */
const listenOffEphemeral = async (server: Server): Promise<number> => {
    const range = await Fs.readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '32768');
    const first = Number(range.trim().split(/\s+/)[0]) || 32768;
    for (;;) {
        const port = 10_000 + Crypto.randomInt(Math.max(1, first - 10_000));
        const taken = await new Promise<boolean>((resolve, reject) => {
            const onError = (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(true) : reject(err));
            server.once('error', onError);
            server.listen(port, '127.0.0.1', () => {
                server.off('error', onError);
                resolve(false);
            });
        });
        if (!taken) {
            return port;
        }
    }
};

export interface ReceivedMail {
    from: string;
    to: string[];
    subject: string;
    text: string;
    /** The HTML part, if any. */
    html?: string;
    /** The envelope sender (MAIL FROM: what becomes the Return-Path). */
    envelopeFrom: string;
    /** The SMTP session it came on: messages with the same one shared a connection. */
    connection: string;
    raw: string;
}

export interface SmtpSink {
    url: string;
    messages: ReceivedMail[];
    /** Resolves once at least `count` messages arrived; rejects after `timeoutMs`. */
    waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
    /**
     * Makes deliveries to this address fail at RCPT: by default `550 mailbox unavailable`; `reply`
     * chooses the code and text (`{code: 550, message: '5.1.1 user unknown'}`, a 450 to try later).
     */
    reject(address: string, reply?: { code: number; message: string }): void;
    /**
     * Refuses every recipient at RCPT with `reply` (null: stop), after `afterMs`, as a relay that
     * takes its time to say no: every e-mail of a run fails, one at a time.
     */
    refuseRecipients(reply: { code: number; message: string } | null, afterMs?: number): void;
    /** RCPT TO commands received per address (lower case), whatever the answer. */
    readonly rcpts: ReadonlyMap<string, number>;
    /** Answers RCPT TO for this address with `code` (450: mailbox busy) until `undefer`; others pass. */
    defer(address: string, code?: number): void;
    undefer(address: string): void;
    /** RCPT TO answers given to deferred addresses so far. */
    readonly deferrals: number;
    // Fault modes, to behave like a real relay having a bad day:
    /** Answers the next `count` messages with `code` (451: try again later) and `message` after their data. */
    failNext(count: number, code?: number, message?: string): void;
    /** Closes the connection in the middle of the next `count` messages' data, answering nothing. */
    dropNext(count?: number): void;
    /** Every connection is cut and the port refuses connections for `ms`; resolves once it listens again. */
    down(ms: number): Promise<void>;
    /** Every connection is cut and the port refuses connections until `start` (a relay stopped). */
    stop(): Promise<void>;
    start(): Promise<void>;
    /**
     * Answers every command with `code` (421: service closing, which also closes the connection; 451)
     * until called with null: a new connection's greeting, and on connections already open MAIL FROM,
     * RCPT TO or the end of DATA, whichever comes next. A message refused at the end of its data is
     * not kept. `message` replaces the default text.
     */
    refuseAll(code: number | null, message?: string): void;
    /** MAIL FROM commands answered so far: what refuseAll turned away, and probes. */
    readonly mailFroms: number;
    /** Commands and greetings refuseAll answered with its code. */
    readonly refusedAll: number;
    /** Waits this long before accepting each message, like a distant relay. */
    delay(ms: number): void;
    /**
     * Holds each message from now on once its data arrived, unanswered; resolves once `count` are
     * held. The client sees a relay that is slow to accept: a worker killed meanwhile never reads the 250.
     */
    hold(count: number): Promise<void>;
    /** Accepts the held messages (whether or not their client is still there) and stops holding. */
    release(): void;
    /** Messages whose data arrived, whatever the answer. */
    readonly attempts: number;
    /** The name each connection gave in EHLO/HELO, in order. */
    readonly heloNames: string[];
    /** Messages refused because a line was over 998 bytes (RFC 5322 §2.1.1), as strict relays do. */
    readonly tooLong: number;
    /** The most messages that were waiting for their answer at once (see `delay`). */
    readonly peakWaiting: number;
    close(): Promise<void>;
}

const addresses = (value: ParsedMail['to']): string[] =>
    (Array.isArray(value) ? value : value ? [value] : []).flatMap((group) => group.value.map((entry) => entry.address ?? ''));

/** A real SMTP server on loopback that keeps what it receives. */
export const startSmtpSink = async (): Promise<SmtpSink> => {
    const messages: ReceivedMail[] = [];
    const rejected = new Map<string, { code: number; message: string }>();
    const deferred = new Map<string, number>();
    let deferrals = 0;
    let waiters: (() => void)[] = [];
    let failing: { count: number; code: number; message: string } = { count: 0, code: 451, message: 'try again later' };
    let dropping = 0;
    let delayMs = 0;
    let holding: { count: number; held: (() => void)[]; reached: () => void } | null = null;
    let attempts = 0;
    let tooLong = 0;
    let refusingAll: number | null = null;
    let refusedAll = 0;
    let refusingText: string | undefined;
    let mailFroms = 0;
    let refusingRecipients: { reply: { code: number; message: string }; afterMs: number } | null = null;
    const rcpts = new Map<string, number>();
    const heloNames: string[] = [];
    let waiting = 0;
    let peakWaiting = 0;
    const refuse = (message: string, code: number) => Object.assign(new Error(message), { responseCode: code });
    /** refuseAll's answer, while it is on. */
    const refusal = () => {
        if (refusingAll === null) {
            return null;
        }

        refusedAll++;
        return refuse(refusingText ?? (refusingAll === 421 ? '4.3.2 service shutting down, closing channel' : '4.3.0 try again later'), refusingAll);
    };

    const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onConnect(_session, callback) {
            callback(refusal());
        },
        onMailFrom(_address, session, callback) {
            mailFroms++;
            if (session.transaction === 1) {
                heloNames.push(session.hostNameAppearsAs);
            }

            callback(refusal());
        },
        onRcptTo(address, _session, callback) {
            const lower = address.address.toLowerCase();
            rcpts.set(lower, (rcpts.get(lower) ?? 0) + 1);
            const refusedNow = refusal();
            if (refusedNow) {
                return callback(refusedNow);
            }

            if (refusingRecipients !== null) {
                const { reply, afterMs } = refusingRecipients;
                setTimeout(() => callback(refuse(reply.message, reply.code)), afterMs);
                return;
            }

            const rejection = rejected.get(lower);
            if (rejection) {
                return callback(refuse(rejection.message, rejection.code));
            }

            const code = deferred.get(address.address.toLowerCase());
            if (code !== undefined) {
                deferrals++;
                return callback(refuse('4.2.1 mailbox busy, try again later', code));
            }

            callback();
        },
        onData(stream, session, callback) {
            const chunks: Buffer[] = [];
            const drop = dropping > 0;
            dropping -= drop ? 1 : 0;
            stream.on('data', (chunk: Buffer) => {
                chunks.push(chunk);
                if (drop) {
                    socketOf(session.id)?.destroy();
                }
            });
            stream.on('end', async () => {
                attempts++;
                if (drop) {
                    return;
                }

                if (Buffer.concat(chunks).toString('latin1').split('\r\n').some((line) => line.length > 998)) {
                    tooLong++;
                    return callback(refuse('5.6.0 message has a line over 998 bytes', 554));
                }

                if (holding) {
                    const { held, count, reached } = holding;
                    await new Promise<void>((resolve) => {
                        held.push(resolve);
                        if (held.length === count) {
                            reached();
                        }
                    });
                } else if (failing.count > 0) {
                    failing.count--;
                    return callback(refuse(failing.message, failing.code));
                }

                if (delayMs > 0) {
                    peakWaiting = Math.max(peakWaiting, ++waiting);
                    await sleep(delayMs);
                    waiting--;
                }

                const refusedNow = refusal();
                if (refusedNow) {
                    return callback(refusedNow);
                }

                const raw = Buffer.concat(chunks).toString('utf8');
                const parsed = await simpleParser(raw);
                messages.push({
                    from: addresses(parsed.from as ParsedMail['to'])[0] ?? '',
                    to: addresses(parsed.to),
                    subject: parsed.subject ?? '',
                    text: (parsed.text ?? '').replace(/\n$/, ''),
                    ...(typeof parsed.html === 'string' ? { html: parsed.html } : {}),
                    envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                    connection: session.id,
                    raw
                });
                for (const wake of waiters) {
                    wake();
                }

                callback();
            });
        }
    });

    // A client that drops its connection (as a cancelled send does) is no failure of the sink.
    server.on('error', () => {});

    // smtp-server keeps its open connections in a set; each holds its socket.
    const connections = () => (server as unknown as { connections: Set<{ id: string; _socket: Socket }> }).connections;
    const socketOf = (id: string) => [...connections()].find((connection) => connection.id === id)?._socket;

    const port = await listenOffEphemeral(server.server);
    const stop = () =>
        new Promise<void>((resolve) => {
            server.server.close(() => resolve());
            for (const connection of connections()) {
                connection._socket.destroy();
            }
        });
    const start = () => new Promise<void>((resolve) => server.server.listen(port, '127.0.0.1', resolve));

    return {
        url: `smtp://127.0.0.1:${port}`,
        messages,
        reject: (address, reply = { code: 550, message: 'mailbox unavailable' }) => {
            rejected.set(address.toLowerCase(), reply);
        },
        refuseRecipients(reply, afterMs = 0) {
            refusingRecipients = reply === null ? null : { reply, afterMs };
        },
        rcpts,
        defer: (address, code = 450) => deferred.set(address.toLowerCase(), code),
        undefer: (address) => deferred.delete(address.toLowerCase()),
        get deferrals() {
            return deferrals;
        },
        failNext(count, code = 451, message = 'try again later') {
            failing = { count, code, message };
        },
        dropNext(count = 1) {
            dropping = count;
        },
        async down(ms) {
            await stop();
            await sleep(ms);
            await start();
        },
        stop,
        start,
        refuseAll(code, message) {
            refusingAll = code;
            refusingText = message;
        },
        get mailFroms() {
            return mailFroms;
        },
        get refusedAll() {
            return refusedAll;
        },
        delay(ms) {
            delayMs = ms;
        },
        hold: (count) =>
            new Promise<void>((reached) => {
                holding = { count, held: [], reached };
            }),
        release() {
            const held = holding?.held ?? [];
            holding = null;
            for (const accept of held) {
                accept();
            }
        },
        get attempts() {
            return attempts;
        },
        heloNames,
        get tooLong() {
            return tooLong;
        },
        get peakWaiting() {
            return peakWaiting;
        },
        waitFor(count, timeoutMs = 10_000) {
            return new Promise((resolve, reject) => {
                const check = () => {
                    if (messages.length >= count) {
                        clearTimeout(timer);
                        waiters = waiters.filter((w) => w !== check);
                        resolve(messages.slice());
                        return true;
                    }

                    return false;
                };

                const timer = setTimeout(() => {
                    waiters = waiters.filter((w) => w !== check);
                    reject(new Error(`expected ${count} e-mails within ${timeoutMs} ms, got ${messages.length}`));
                }, timeoutMs);
                if (!check()) {
                    waiters.push(check);
                }
            });
        },
        close: () => new Promise<void>((resolve) => server.close(() => resolve()))
    };
};
