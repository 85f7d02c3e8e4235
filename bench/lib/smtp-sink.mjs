// An SMTP server for benchmarks that accepts and counts, nothing more, so it is never the bottleneck
// unless asked to be: with `delayMs` it waits that long before accepting each message, like a
// distant relay. It keeps the text of sign-up e-mails only (to bench-* addresses), for the code.
// With `track`, it also counts the messages per recipient and notes when each was accepted (to find
// lost and duplicated e-mails, and the rate over a run); reset() forgets them.
import { SMTPServer } from 'smtp-server';
import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';

import { check } from './api.mjs';
import { jsonRequest } from './server.mjs';

/**
 * smtp-server waits 100 ms before its greeting (to catch clients that talk first), then looks the
 * client's address up in reverse DNS: a client that opens a connection per message would measure
 * that wait. The sink greets at once.
 */
class PromptConnection extends SMTPConnection {
    init() {
        this._setListeners(() => this.connectionReady());
    }
}

const greetAtOnce = (server) => {
    // SMTPServer.connect as in smtp-server 3.x, with the connection above.
    server.connect = function connect(socket, socketOptions) {
        const connection = new PromptConnection(this, socket, socketOptions);
        this.connections.add(connection);
        connection.on('error', (err) => this._onError(err));
        connection.on('connect', (data) => this._onClientConnect(data));
        connection.init();
    };
    return server;
};

export const startSink = async ({ delayMs = 0, track = false } = {}) => {
    let count = 0;
    const otps = new Map();
    let perRecipient = new Map();
    let arrivals = [];
    const server = greetAtOnce(new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        disableReverseLookup: true,
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
                    if (track && !code) {
                        perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
                        arrivals.push(performance.now());
                    }

                    callback();
                };
                if (delayMs > 0 && !code) {
                    setTimeout(accept, delayMs);
                } else {
                    accept();
                }
            });
        }
    }));
    // A client that goes away mid-message (a killed or frozen server) is not the sink's failure.
    server.on('error', () => {});
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address();
    return {
        url: `smtp://127.0.0.1:${port}`,
        get count() {
            return count;
        },
        otp: (email) => otps.get(email),
        /** With `track`: messages accepted per recipient since the last reset(). */
        get perRecipient() {
            return perRecipient;
        },
        /** With `track`: when each message since the last reset() was accepted (performance.now()). */
        get arrivals() {
            return arrivals;
        },
        reset() {
            perRecipient = new Map();
            arrivals = [];
        },
        /** Cuts every connection and refuses new ones until start(): a relay stopped. */
        stop: () =>
            new Promise((resolve) => {
                server.server.close(() => resolve());
                for (const connection of server.connections) {
                    connection._socket.destroy();
                }
            }),
        start: () => new Promise((resolve) => server.server.listen(port, '127.0.0.1', resolve)),
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

    for (let tries = 0; tries < 400 && !sink.otp(email); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
    }

    const verified = await jsonRequest(server, 'POST', '/api/auth/verify-email', { email, otp: sink.otp(email) });
    if (verified.status !== 200) {
        throw new Error(`verify-email answered ${verified.status}: ${verified.text}`);
    }

    return { token: verified.json.accessToken };
};

/**
 * A personal API token of the account `accessToken` signed into (just now, as creating one needs): for
 * benches that last longer than an access token's 15 minutes.
 */
export const createApiToken = async (server, accessToken) => {
    const res = await fetch(`${server.url}/api/account/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench' })
    });
    return (await check(res, 201, 'creating an API token')).token;
};

/**
 * A new account's workflow that mails each of `rows` people once (TRIGGER → DATA_SOURCE → OUTPUT
 * `send`): its id, and the headers that authenticate as that account.
 */
export const createMailWorkflow = async (server, sink, rows) => {
    const { token } = await createAccount(server, sink);
    const auth = { authorization: `Bearer ${token}` };
    const lines = ['name,email', ...Array.from({ length: rows }, (_, i) => `Person ${i},person${i}@example.test`)];
    const form = new FormData();
    form.append('file', new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' }), 'people.csv');
    const { uploadId } = await check(await fetch(`${server.url}/api/uploads`, { method: 'POST', body: form, headers: auth }), 201, 'upload');
    const graph = {
        nodes: [
            { id: 'start', type: 'TRIGGER', data: {} },
            { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
            { id: 'send', type: 'OUTPUT', data: { forEach: '{{people.rows}}', to: '{{item.email}}', subject: 'Hello {{item.name}}', body: 'Hi {{item.name}}.' } }
        ],
        edges: [
            { source: 'start', target: 'people' },
            { source: 'people', target: 'send' }
        ]
    };
    const headers = { ...auth, 'content-type': 'application/json' };
    const { workflowId } = await check(await fetch(`${server.url}/api/workflows`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench', graph }) }), 201, 'workflow');
    return { workflowId, auth };
};
