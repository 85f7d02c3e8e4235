import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';

import { SmtpPool } from '../src/mail/smtp-pool.js';

interface Sink {
    port: number;
    delivered: string[];
    open: number;
    peak: number;
    close(): Promise<void>;
}

const startSink = async (options: Partial<SMTPServerOptions> = {}): Promise<Sink> => {
    const sink = { delivered: [] as string[], open: 0, peak: 0 };
    const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onConnect(_session, callback) {
            sink.open++;
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
});
