import Net from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { nodeRequest } from './node-client.js';

const TRIES = 20;
const BOUNDARY = 'flowctl-early-boundary';
const MIB = 1024 * 1024;

/** A multipart upload of `bytes` bytes of CSV. */
const upload = (bytes: number) =>
    Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nvalue\n`),
        Buffer.alloc(bytes, '1\n'),
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
    ]);

/** A JSON body of `bytes` bytes. */
const json = (bytes: number) => Buffer.from(JSON.stringify({ name: 'x'.repeat(bytes) }));

/**
 * The whole request written at once on a raw socket. Resolves when the connection closed, with what
 * came back and the socket error, if any: ECONNRESET means the server closed with the body unread,
 * which on many systems (and on Linux when the client is still writing) throws the answer away.
 */
const sendWhole = (baseUrl: string, method: string, path: string, headers: Record<string, string>, body: Buffer) =>
    new Promise<{ received: string; error: string | null }>((resolve) => {
        const url = new URL(baseUrl);
        const socket = Net.connect({ host: url.hostname, port: Number(url.port) });
        let received = '';
        let error: string | null = null;
        socket.on('connect', () => {
            const head = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, `Content-Length: ${body.length}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
            socket.write(`${head.join('\r\n')}\r\n\r\n`);
            socket.end(body);
        });
        socket.on('data', (data) => {
            received += data.toString('latin1');
        });
        socket.on('error', (err: NodeJS.ErrnoException) => {
            error = err.code ?? err.message;
        });
        socket.on('close', () => resolve({ received, error }));
    });

// The server answers these before it has read the body. It then keeps reading (and discarding) a
// bounded while before it closes, so a client still sending reads the answer every time: the
// connection ends with a FIN, not a reset.
describe('answers given before the body was read (MAX_UPLOAD_BYTES = 4 MiB)', () => {
    let t: TestServer;
    let account: TestAccount;
    beforeAll(async () => {
        t = await startTestServer({ config: { maxUploadBytes: 4 * MIB } });
        account = await createAccount(t);
    });
    afterAll(() => t.close());

    const cases = (): [string, string, string, Record<string, string>, Buffer][] => [
        ['413 JSON', 'POST', '/api/workflows', { ...account.headers, 'content-type': 'application/json' }, json(5 * MIB)],
        ['413 upload', 'POST', '/api/uploads', { ...account.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, upload(5 * MIB)],
        ['401 upload', 'POST', '/api/uploads', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, upload(2 * MIB)]
    ];

    it('closes cleanly after the answer, every time, while the client is still sending', async () => {
        const problems: string[] = [];
        for (const [name, method, path, headers, body] of cases()) {
            const status = name.slice(0, 3);
            for (let i = 0; i < TRIES; i++) {
                const { received, error } = await sendWhole(t.url, method, path, headers, body);
                if (!received.startsWith(`HTTP/1.1 ${status} `) || error !== null) {
                    problems.push(`${name}: ${received.split('\r\n')[0] || '(no answer)'} ${error ?? ''}`);
                }
            }
        }

        expect(problems).toEqual([]);
    });

    it("Node's http client reads the status and message every time", async () => {
        const problems: string[] = [];
        for (const [name, method, path, headers, body] of cases()) {
            for (let i = 0; i < TRIES; i++) {
                const answer = await nodeRequest(t.url, { method, path, headers, body }).then(
                    (res) => `${res.status} ${JSON.parse(res.body).message}`,
                    (err: NodeJS.ErrnoException) => err.code ?? err.message
                );
                if (!answer.startsWith(name.slice(0, 3))) {
                    problems.push(`${name}: ${answer}`);
                }
            }
        }

        expect(problems).toEqual([]);
    });
});
