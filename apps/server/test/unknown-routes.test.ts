import Net from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { rawRequest } from './raw-http.js';

const MIB = 1024 * 1024;

/**
 * Declares a `declared`-byte body and sends zeros as fast as the server takes them, until the server
 * answers and closes. Resolves with the answer's status line and how many body bytes were written.
 */
const flood = (baseUrl: string, method: string, path: string, headers: Record<string, string>, declared: number) =>
    new Promise<{ statusLine: string; written: number }>((resolve, reject) => {
        const url = new URL(baseUrl);
        const socket = Net.connect({ host: url.hostname, port: Number(url.port) });
        const chunk = Buffer.alloc(64 * 1024);
        let written = 0;
        let received = '';
        let closed = false;
        const pump = () => {
            while (!closed && written < declared) {
                written += chunk.length;
                if (!socket.write(chunk)) {
                    socket.once('drain', pump);
                    return;
                }
            }
        };
        socket.on('connect', () => {
            const head = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, `Content-Length: ${declared}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
            socket.write(`${head.join('\r\n')}\r\n\r\n`);
            pump();
        });
        socket.on('data', (data) => {
            received += data.toString('latin1');
        });
        socket.on('error', () => {});
        socket.on('close', () => {
            closed = true;
            const statusLine = received.split('\r\n')[0] ?? '';
            return statusLine ? resolve({ statusLine, written }) : reject(new Error(`closed without an answer after ${written} bytes`));
        });
    });

describe('requests for no route', () => {
    let t: TestServer;
    let account: TestAccount;
    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
    });
    afterAll(() => t.close());

    // A client's and the server's socket buffers hold a few MiB; the server itself reads little more.
    const READ_AT_MOST = 24 * MIB;

    it('answers 404 to an unknown path without reading a 200 MiB body, signed in or not', async () => {
        for (const headers of [{}, account.headers]) {
            const res = await flood(t.url, 'POST', '/api/nonexistent', { ...headers, 'content-type': 'application/json' }, 200 * MIB);
            expect(res.statusLine).toBe('HTTP/1.1 404 Not Found');
            expect(res.written).toBeLessThan(READ_AT_MOST);
        }
    });

    it('answers 404 to a method the path does not have without reading its 80 MiB body', async () => {
        const res = await flood(t.url, 'POST', '/api/account/settings', { ...account.headers, 'content-type': 'application/json' }, 80 * MIB);
        expect(res.statusLine).toBe('HTTP/1.1 404 Not Found');
        expect(res.written).toBeLessThan(READ_AT_MOST);

        // The route itself still takes its body.
        const put = await t.request({ method: 'PUT', url: '/api/account/settings', headers: account.headers, payload: { ai: { model: 'm' } } });
        expect(put.statusCode).toBe(200);
    });

    it('answers 400 to a path that is not valid percent-encoding, with a body or not, signed in or not', async () => {
        const requests = [
            ['DELETE', '/api/account/tokens/%ff'],
            ['PATCH', '/api/workflows/%c0%80'],
            ['POST', '/api/workflows/runs/%ff/cancel']
        ];
        for (const [method, path] of requests) {
            for (const headers of [{}, account.headers]) {
                for (const body of ['', '{}']) {
                    const res = await rawRequest(t.url, {
                        method: method as string,
                        path: path as string,
                        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) },
                        chunks: [body]
                    });
                    expect(res.status, `${method} ${path} with ${body ? 'a body' : 'no body'}`).toBe(400);
                }
            }
        }
    });

    it('answers 4xx, not 500, to the request target *, whatever the method', async () => {
        for (const method of ['OPTIONS', 'GET', 'POST']) {
            const res = await rawRequest(t.url, { method, path: '*', headers: { 'content-length': '0' } });
            expect(res.status, `${method} *`).toBeGreaterThanOrEqual(400);
            expect(res.status, `${method} *`).toBeLessThan(500);
        }
    });
});
