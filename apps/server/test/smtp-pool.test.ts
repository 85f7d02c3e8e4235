import Net from 'node:net';

import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';

import { SmtpPool } from '../src/mail/smtp-pool.js';
import { startSmtpSink } from './smtp.js';

interface Sink {
    port: number;
    delivered: string[];
    open: number;
    peak: number;
    /** Connections opened in all. */
    opened: number;
    close(): Promise<void>;
}

const startSink = async (options: Partial<SMTPServerOptions> = {}): Promise<Sink> => {
    const sink = { delivered: [] as string[], open: 0, peak: 0, opened: 0 };
    const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onConnect(_session, callback) {
            sink.open++;
            sink.opened++;
            sink.peak = Math.max(sink.peak, sink.open);
            callback();
        },
        onClose() {
            sink.open--;
        },
        onData(stream, session, callback) {
            stream.on('data', () => {});
            stream.on('end', () => {
                sink.delivered.push(session.envelope.rcptTo.map((r) => r.address).join(','));
                callback();
            });
        },
        ...options
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return Object.assign(sink, {
        port: (server.server.address() as { port: number }).port,
        close: () => new Promise<void>((resolve) => server.close(() => resolve()))
    });
};

const mail = (to: string) => ({ from: 'flowctl <no-reply@flowctl.test>', to, subject: 'Hi', text: 'Hello' });

describe('the SMTP connection pool', () => {
    const cleanups: (() => unknown)[] = [];
    afterEach(async () => {
        for (const cleanup of cleanups.splice(0).reverse()) {
            await cleanup();
        }
    });

    const setup = async (sinkOptions: Partial<SMTPServerOptions> = {}, credentials = '', poolOptions = {}) => {
        const sink = await startSink(sinkOptions);
        const pool = new SmtpPool(`smtp://${credentials}127.0.0.1:${sink.port}`, 'flowctl <no-reply@flowctl.test>', poolOptions);
        cleanups.push(() => sink.close(), () => pool.close());
        return { sink, pool };
    };

    it('logs in with the credentials of the URL, and reports a refused login', async () => {
        const auth: Partial<SMTPServerOptions> = {
            authOptional: false,
            allowInsecureAuth: true,
            onAuth(credentials, _session, callback) {
                if (credentials.username === 'mailer' && credentials.password === 's3cret') {
                    return callback(null, { user: 'mailer' });
                }

                callback(new Error('Invalid username or password'));
            }
        };
        const { sink, pool } = await setup(auth, 'mailer:s3cret@');
        await pool.send(mail('ada@example.test'));
        expect(sink.delivered).toEqual(['ada@example.test']);

        const { pool: wrong } = await setup(auth, 'mailer:nope@');
        await expect(wrong.send(mail('ada@example.test'))).rejects.toMatchObject({ code: 'EAUTH' });
    });

    it('surfaces a rejected recipient with its SMTP code and carries on with the next message', async () => {
        const { sink, pool } = await setup({
            onRcptTo(address, _session, callback) {
                if (address.address.startsWith('bounce')) {
                    const err = new Error('mailbox unavailable') as Error & { responseCode: number };
                    err.responseCode = 550;
                    return callback(err);
                }

                callback();
            }
        });
        await expect(pool.send(mail('bounce@example.test'))).rejects.toMatchObject({ responseCode: 550 });
        await pool.send(mail('ada@example.test'));
        expect(sink.delivered).toEqual(['ada@example.test']);
    });

    it('replaces a connection the server closed while it was idle', async () => {
        const { sink, pool } = await setup({ socketTimeout: 150 });
        await pool.send(mail('ada@example.test'));
        await new Promise((resolve) => setTimeout(resolve, 400));
        await pool.send(mail('alan@example.test'));
        expect(sink.delivered).toEqual(['ada@example.test', 'alan@example.test']);
    });

    it('holds the message data back until `after` settles, and never sends it if `after` fails', async () => {
        const { sink, pool } = await setup();
        let release!: () => void;
        const after = new Promise<void>((resolve) => {
            release = resolve;
        });
        const sending = pool.send(mail('ada@example.test'), { after });
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(sink.delivered).toEqual([]);
        release();
        await sending;
        expect(sink.delivered).toEqual(['ada@example.test']);

        await expect(pool.send(mail('alan@example.test'), { after: Promise.reject(new Error('not recorded')) })).rejects.toThrow('not recorded');
        await pool.send(mail('grace@example.test'));
        expect(sink.delivered).toEqual(['ada@example.test', 'grace@example.test']);
    });

    it('sends concurrent messages over at most maxConnections connections', async () => {
        const { sink, pool } = await setup({}, '', { maxConnections: 2 });
        const recipients = Array.from({ length: 12 }, (_, i) => `p${i}@example.test`);
        await Promise.all(recipients.map((to) => pool.send(mail(to))));
        expect([...sink.delivered].sort()).toEqual([...recipients].sort());
        expect(sink.peak).toBeLessThanOrEqual(2);
    });

    it('keeps the connection after a refused message: the next one goes over it once the transaction is reset', async () => {
        let refuse = 2;
        const { sink, pool } = await setup({
            onRcptTo(address, _session, callback) {
                callback(address.address.startsWith('bounce') ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined);
            },
            onData(stream, session, callback) {
                stream.on('data', () => {});
                stream.on('end', () => {
                    if (refuse-- > 0) {
                        return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
                    }

                    sink.delivered.push(session.envelope.rcptTo.map((r) => r.address).join(','));
                    callback();
                });
            }
        });
        await expect(pool.send(mail('ada@example.test'))).rejects.toMatchObject({ responseCode: 451 });
        await expect(pool.send(mail('ada@example.test'))).rejects.toMatchObject({ responseCode: 451 });
        await expect(pool.send(mail('bounce@example.test'))).rejects.toMatchObject({ responseCode: 550 });
        await pool.send(mail('ada@example.test'));
        expect(sink.delivered).toEqual(['ada@example.test']);
        expect(sink.opened).toBe(1);
    });
});

describe('the SMTP connection pool against a failing server', () => {
    const cleanups: (() => unknown)[] = [];
    afterEach(async () => {
        for (const cleanup of cleanups.splice(0).reverse()) {
            await cleanup();
        }
    });

    const setup = async (poolOptions = {}) => {
        const sink = await startSmtpSink();
        const pool = new SmtpPool(sink.url, 'flowctl <no-reply@flowctl.test>', poolOptions);
        cleanups.push(() => sink.close(), () => pool.close());
        return { sink, pool };
    };

    it('fails a message whose connection drops in the middle of its data, and sends the next one', async () => {
        const { sink, pool } = await setup();
        await pool.send(mail('ada@example.test'));
        sink.dropNext();
        await expect(pool.send(mail('alan@example.test'))).rejects.toMatchObject({ code: 'ECONNECTION' });
        await pool.send(mail('grace@example.test'));
        expect(sink.messages.map((m) => m.to)).toEqual([['ada@example.test'], ['grace@example.test']]);
    });

    it('fails a message the server does not answer within the deadline', async () => {
        const { sink, pool } = await setup({ dataTimeoutMs: 200 });
        sink.delay(3000);
        await expect(pool.send(mail('ada@example.test'))).rejects.toMatchObject({ code: 'ETIMEDOUT', message: expect.stringMatching(/within 200 ms/) });
    });

    it('waits for the reply to the end of the data longer than for a command, and sends the message once', async () => {
        // RFC 5321 §4.5.3.2.6: the server may take minutes to accept the data; giving up at the
        // command timeout and retrying would deliver a message it was still accepting twice.
        const { sink, pool } = await setup({ timeoutMs: 200, dataTimeoutMs: 30_000 });
        sink.delay(1000);
        await pool.send(mail('ada@example.test'), { retry: { attempts: 3, forMs: 60_000, delayMs: 10 } });
        expect(sink.attempts).toBe(1);
        expect(sink.messages.map((m) => m.to)).toEqual([['ada@example.test']]);
    });

    it('gives up opening a connection to a server that accepts it but never greets', async () => {
        const silent = Net.createServer(() => {});
        await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
        cleanups.push(() => new Promise((resolve) => silent.close(resolve)));
        const port = (silent.address() as Net.AddressInfo).port;
        const pool = new SmtpPool(`smtp://127.0.0.1:${port}`, 'flowctl <no-reply@flowctl.test>', { timeoutMs: 200 });
        cleanups.push(() => pool.close());
        await expect(pool.send(mail('ada@example.test'))).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    });

    it('stops a message under way when its signal aborts', async () => {
        const { sink, pool } = await setup();
        sink.delay(3000);
        const controller = new AbortController();
        const sending = pool.send(mail('ada@example.test'), { signal: controller.signal });
        while (sink.attempts === 0) {
            await new Promise((resolve) => setTimeout(resolve, 10));
        }

        controller.abort(new Error('run cancelled'));
        await expect(sending).rejects.toThrow('run cancelled');
        sink.delay(0);
        await pool.send(mail('alan@example.test'));
        expect(sink.messages.map((m) => m.to)).toEqual([['alan@example.test']]);
    });
});
