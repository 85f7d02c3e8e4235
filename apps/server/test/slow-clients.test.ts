import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { type RawRequest, rawRequest } from './raw-http.js';
import { bearer, signUp } from './sign-up.js';
import { storedBlobFiles, uploadCsv } from './upload-fixtures.js';

const BOUNDARY = 'flowctl-slow-boundary';
const partHead = (filename = 'data.csv') =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`;
const multipart = `multipart/form-data; boundary=${BOUNDARY}`;

/** Chunked transfer-encoding frame of one chunk. */
const frame = (data: string | Buffer) => Buffer.concat([Buffer.from(`${Buffer.byteLength(data).toString(16)}\r\n`), Buffer.from(data), Buffer.from('\r\n')]);

const nested = (depth: number) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;

describe('slow and oversized clients (BODY_TIMEOUT_SECONDS = 1, MAX_UPLOAD_BYTES = 64 KiB)', () => {
    let t: TestServer;
    let account: TestAccount;
    let auth: Record<string, string>;
    beforeAll(async () => {
        t = await startTestServer({ config: { bodyTimeoutSeconds: 1, maxUploadBytes: 64 * 1024 } });
        account = await createAccount(t);
        auth = account.headers;
    });
    afterAll(() => t.close());

    /** A raw request whose answer is checked against /openapi.json like every other. */
    const send = async (request: RawRequest) => {
        const res = await rawRequest(t.url, request);
        t.contract!.check({ method: request.method, url: request.path, status: res.status, headers: res.headers, body: res.body });
        return res;
    };

    it('answers 408 when a JSON body stops arriving', async () => {
        const res = await send({
            method: 'POST',
            path: '/api/workflows',
            headers: { ...auth, 'content-type': 'application/json', 'content-length': '200' },
            chunks: ['{"name": "half a bo']
        });
        expect(res.status).toBe(408);
        expect(res.json.message).toMatch(/body stopped arriving/);
    });

    it('answers 408 when an upload stops arriving mid-file, and keeps nothing', async () => {
        const res = await send({
            method: 'POST',
            path: '/api/uploads',
            headers: { ...auth, 'content-type': multipart, 'content-length': '5000' },
            chunks: [partHead(), 'a,b\n1,2\n']
        });
        expect(res.status).toBe(408);
        expect(res.json.message).toMatch(/body stopped arriving/);
        expect(await storedBlobFiles(t)).toEqual([]);
    });

    it('answers 408 to an enqueue whose body stops arriving, and enqueues nothing', async () => {
        // Found by an outside attack: a request without an Idempotency-Key, its owner left to the
        // enqueue's statement, had its body's refusal dropped and was answered 202.
        const graph = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
        const { workflowId } = (await t.request({ method: 'POST', url: '/api/workflows', headers: auth, payload: { name: 'slow', graph } })).json;
        for (const headers of [auth, { ...auth, 'idempotency-key': 'slow-body' }]) {
            const res = await send({ method: 'POST', path: `/api/workflows/${workflowId}/run`, headers: { ...headers, 'content-length': '10' }, chunks: ['a'] });
            expect(res.status).toBe(408);
            expect(res.json.message).toMatch(/body stopped arriving/);
        }

        expect((await t.request({ method: 'GET', url: `/api/workflows/${workflowId}/runs`, headers: auth })).json).toEqual([]);
    });

    it('answers 401 to an ended session whose enqueue body stops arriving, and closes the connection', async () => {
        const { accessToken, refreshToken } = await signUp(t);
        const graph = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
        const { workflowId } = (await t.request({ method: 'POST', url: '/api/workflows', headers: bearer(accessToken), payload: { name: 'slow', graph } })).json;
        expect((await t.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } })).statusCode).toBe(204);
        const res = await send({ method: 'POST', path: `/api/workflows/${workflowId}/run`, headers: { ...bearer(accessToken), 'content-length': '10' }, chunks: ['a'] });
        expect(res.status).toBe(401);
        expect(res.json.message).toMatch(/session has ended/);
        // The body was never read: the next request on this connection would start in its middle.
        expect(res.headers.connection).toBe('close');
    });

    it('answers 413 from the declared Content-Length alone, before any body is sent', async () => {
        const json = await send({
            method: 'POST',
            path: '/api/workflows',
            headers: { ...auth, 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) }
        });
        expect(json.status).toBe(413);
        expect(json.json.message).toMatch(/larger than/);

        const upload = await send({
            method: 'POST',
            path: '/api/uploads',
            headers: { ...auth, 'content-type': multipart, 'content-length': String(10 * 1024 * 1024) }
        });
        expect(upload.status).toBe(413);
        expect(upload.json.message).toMatch(/upload limit of 64 KiB/);
    });

    it('answers 413 from a declared Content-Length on routes that name an owned id, signed in or not, and keeps serving', async () => {
        // Found by an outside attack: the ownership check's deferred refusal came back as a promise,
        // hapi answered 500 ("Cannot throw non-error object") and the rejection ended the process.
        for (const [method, path] of [
            ['DELETE', '/api/uploads/upl_x'],
            ['PATCH', '/api/workflows/wf_x'],
            ['POST', '/api/workflows/wf_x/revisions/1/restore'],
            ['POST', '/api/workflows/wf_x/run']
        ] as const) {
            for (const headers of [auth, {}]) {
                const res = await send({ method, path, headers: { ...headers, 'content-type': 'application/json', 'content-length': '2000000' } });
                expect(res.status, `${method} ${path}`).toBe(413);
                expect(res.json.message, `${method} ${path}`).toMatch(/larger than/);
            }
        }

        expect((await t.request({ method: 'GET', url: '/api/workflows', headers: auth })).statusCode).toBe(200);
    });

    it('answers 413 as soon as a chunked upload passes MAX_UPLOAD_BYTES, while the client is still sending', async () => {
        const row = `${'x'.repeat(1023)}\n`;
        const res = await send({
            method: 'POST',
            path: '/api/uploads',
            headers: { ...auth, 'content-type': multipart, 'transfer-encoding': 'chunked' },
            // 80 KiB of file and no end: the client would go on sending.
            chunks: [frame(partHead()), frame('value\n'), ...Array.from({ length: 80 }, () => frame(row))]
        });
        expect(res.status).toBe(413);
        expect(res.json.message).toMatch(/upload limit of 64 KiB/);
        expect(await storedBlobFiles(t)).toEqual([]);
    });

    it('answers 413 as soon as a chunked JSON body passes its limit, while the client is still sending', async () => {
        // Found by an outside attack: the client got a reset and no answer (hapi parses JSON bodies itself).
        for (const path of ['/api/workflows', '/api/auth/login']) {
            const res = await send({
                method: 'POST',
                path,
                headers: { ...(path === '/api/workflows' ? auth : {}), 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
                chunks: [frame('{"name": "'), ...Array.from({ length: 40 }, () => frame('x'.repeat(64 * 1024)))]
            });
            expect(res.status, path).toBe(413);
            expect(res.json.message, path).toMatch(/larger than/);
        }
    });

    it('answers 413 as soon as a chunked body passes 64 KiB on routes that take it whole or read none, while the client is still sending', async () => {
        // Found by an outside attack: these got a reset and no answer (hapi reads such a body with wreck too).
        const hooked = await t.request({
            method: 'POST',
            url: '/api/workflows',
            headers: auth,
            payload: { name: 'hooked', graph: { nodes: [{ id: 'start', type: 'TRIGGER', data: { webhook: true } }], edges: [] } }
        });
        expect(hooked.statusCode, hooked.payload).toBe(201);
        const hook = new URL(hooked.json.hookUrl).pathname;
        for (const path of ['/api/workflows/wf_x/run', '/api/workflows/runs/run_x/cancel', '/api/workflows/wf_x/revisions/1/restore', hook]) {
            const res = await send({
                method: 'POST',
                path,
                headers: { ...auth, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
                chunks: Array.from({ length: 40 }, () => frame('x'.repeat(16 * 1024)))
            });
            expect(res.status, path).toBe(413);
            expect(res.json.message, path).toMatch(/larger than (the hook limit of )?64 KiB/);
        }
    });

    it('answers 400 to JSON nested deeper than 64 levels, and accepts less', async () => {
        const deep = await t.request({ method: 'POST', url: '/api/workflows', headers: { ...auth, 'content-type': 'application/json' }, payload: nested(10_000) });
        expect(deep.statusCode).toBe(400);
        expect(deep.json.message).toBe('The JSON body is nested deeper than 64 levels: flatten it.');

        // 63 levels: past the depth check, on to ordinary validation.
        const fine = await t.request({ method: 'POST', url: '/api/workflows', headers: { ...auth, 'content-type': 'application/json' }, payload: `{"name": ${nested(31)}}` });
        expect(fine.statusCode).toBe(400);
        expect(fine.json.message).toMatch(/'name' must be a string/);
    });

    it('never keeps path segments or dot-names from an upload filename, and caps its length', async () => {
        const cases: [string, string][] = [
            ['../../etc/passwd.csv', 'passwd.csv'],
            ['..\\..\\windows\\evil.csv', 'evil.csv'],
            ['..', 'upload.csv'],
            ['sub/..', 'upload.csv'],
            [`${'n'.repeat(400)}.csv`, 'n'.repeat(255)]
        ];
        for (const [i, [given, kept]] of cases.entries()) {
            // Bytes of its own each: the same bytes under a name already kept would answer that upload (200).
            const res = await uploadCsv(t, account, `a\n${i}\n`, { filename: given });
            expect(res.status).toBe(201);
            expect(res.json.filename).toBe(kept);
        }
    });
});
