// An SMTP server for benchmarks that accepts and counts, nothing more, so it is never the bottleneck
// unless asked to be: with `delayMs` it waits that long before accepting each message, like a
// distant relay. It keeps the text of sign-up e-mails only (to bench-* addresses), for the code.
import { SMTPServer } from 'smtp-server';

import { jsonRequest } from './server.mjs';

export const startSink = async ({ delayMs = 0 } = {}) => {
    let count = 0;
    const otps = new Map();
    const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, session, callback) {
            const to = session.envelope.rcptTo[0]?.address ?? '';
            const chunks = [];
            stream.on('data', (chunk) => {
                if (to.startsWith('bench-')) {
                    chunks.push(chunk);
                }
            });
            stream.on('end', () => {
                const code = /\b(\d{6})\b/.exec(Buffer.concat(chunks).toString('utf8').split(/\r?\n\r?\n/).slice(1).join('\n'))?.[1];
                if (code) {
                    otps.set(to, code);
                }

                const accept = () => {
                    count++;
                    callback();
                };
                if (delayMs > 0 && !code) {
                    setTimeout(accept, delayMs);
                } else {
                    accept();
                }
            });
        }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        url: `smtp://127.0.0.1:${server.server.address().port}`,
        get count() {
            return count;
        },
        otp: (email) => otps.get(email),
        close: () => new Promise((resolve) => server.close(resolve))
    };
};

/** Registers and verifies through the API; with SMTP_URL set the code arrives at the sink. */
export const createAccount = async (server, sink) => {
    const email = `bench-${Math.random().toString(36).slice(2, 10)}@example.test`;
    const registered = await jsonRequest(server, 'POST', '/api/auth/register', { email, password: 'bench-password-1', fullName: 'Bench User' });
    if (registered.status !== 201) {
        throw new Error(`register answered ${registered.status}: ${registered.text}`);
    }

    for (let tries = 0; tries < 200 && !sink.otp(email); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
    }

    const verified = await jsonRequest(server, 'POST', '/api/auth/verify-email', { email, otp: sink.otp(email) });
    if (verified.status !== 200) {
        throw new Error(`verify-email answered ${verified.status}: ${verified.text}`);
    }

    return { token: verified.json.accessToken };
};
