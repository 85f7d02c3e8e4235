import Net from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';

/** Bytes seen on the socket until the server closed it. */
interface Dripped {
    received: string;
}

/**
 * Writes `head` at once, then `drip` one byte at a time, a byte every 200 ms (so the body idle timeout
 * never fires) until the server closes the connection.
 */
const dripFeed = (baseUrl: string, head: string, drip: string) =>
    new Promise<Dripped>((resolve) => {
        const url = new URL(baseUrl);
        const socket = Net.connect({ host: url.hostname, port: Number(url.port) });
        let received = '';
        let next = 0;
        let timer: NodeJS.Timeout | undefined;
        socket.on('connect', () => {
            socket.write(head.replace('{host}', url.host));
            timer = setInterval(() => {
                if (next < drip.length) {
                    socket.write(drip[next++]!);
                }
            }, 200);
        });
        socket.on('data', (data) => {
            received += data.toString('latin1');
        });
        socket.on('error', () => {});
        socket.on('close', () => {
            clearInterval(timer);
            resolve({ received });
        });
    });

/** A connection that sent part of its request line and waits; resolves once connected. */
const holdOpen = (baseUrl: string) =>
    new Promise<{ socket: Net.Socket; closed: Promise<string> }>((resolve) => {
        const url = new URL(baseUrl);
        const socket = Net.connect({ host: url.hostname, port: Number(url.port) });
        let received = '';
        socket.on('data', (data) => {
            received += data.toString('latin1');
        });
        socket.on('error', () => {});
        const closed = new Promise<string>((done) => socket.on('close', () => done(received)));
        socket.on('connect', () => {
            socket.write('POST /api/workflows HTTP/1.1\r\n');
            resolve({ socket, closed });
        });
    });

describe('drip-fed requests (REQUEST_TIMEOUT_SECONDS = 2, BODY_TIMEOUT_SECONDS = 10)', () => {
    let t: TestServer;
    let account: TestAccount;
    beforeAll(async () => {
        t = await startTestServer({ config: { requestTimeoutSeconds: 2, bodyTimeoutSeconds: 10 } });
        account = await createAccount(t);
    });
    afterAll(() => t.close());

    // A failure shows as the test's timeout: without a total deadline the body takes 60 s to arrive.
    it('answers 408 when the whole body has not arrived within the deadline, though bytes keep coming', { timeout: 20_000 }, async () => {
        const auth = Object.entries(account.headers)
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join('');
        const head = `POST /api/workflows HTTP/1.1\r\nHost: {host}\r\n${auth}Content-Type: application/json\r\nContent-Length: 300\r\n\r\n`;
        const { received } = await dripFeed(t.url, head, `{"name": "${'x'.repeat(286)}"}`);
        expect(received).toMatch(/^HTTP\/1\.1 408 /);
        expect(received).toContain('The request took longer than 2 s to arrive');
        expect(received.toLowerCase()).toContain('connection: close');
    });

    it('closes a connection whose headers have not arrived within the deadline', { timeout: 20_000 }, async () => {
        const { received } = await dripFeed(t.url, 'GET /healthz HTTP/1.1\r\nHost: {host}\r\nX-Drip: ', 'x'.repeat(300));
        expect(received).toMatch(/^HTTP\/1\.1 (400|408) /);
    });
});

describe('connections per client address (MAX_CONNECTIONS_PER_CLIENT = 3)', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer({ config: { maxConnectionsPerClient: 3 } });
    });
    afterAll(() => t.close());

    it('answers 429 to a connection past the limit, and takes new ones once others closed', async () => {
        const held = await Promise.all([holdOpen(t.url), holdOpen(t.url), holdOpen(t.url)]);
        const refused = await holdOpen(t.url);
        const answer = await refused.closed;
        expect(answer).toMatch(/^HTTP\/1\.1 429 /);
        expect(answer).toContain('MAX_CONNECTIONS_PER_CLIENT');

        held[0]!.socket.destroy();
        await held[0]!.closed;
        // The server counts the close when it sees it: a new connection is taken once it has.
        let res = await fetch(`${t.url}/healthz`).catch(() => null);
        while (res?.status !== 200) {
            await new Promise((resolve) => setImmediate(resolve));
            res = await fetch(`${t.url}/healthz`).catch(() => null);
        }

        expect(res.status).toBe(200);
        for (const { socket } of held) {
            socket.destroy();
        }
    });
});
