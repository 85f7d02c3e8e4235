import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { storedBlobFiles, uploadCsv } from './upload-fixtures.js';

/** A CSV of exactly `bytes` bytes. */
const csvOfSize = (bytes: number): string => {
    const header = 'value\n';
    const line = '123456789\n';
    const body = line.repeat(Math.floor((bytes - header.length - 1) / line.length));
    return `${header}${body}${'x'.repeat(bytes - header.length - body.length - 1)}\n`;
};

const LIMIT_MESSAGE = "The file is larger than the upload limit of 1 KiB (1024 bytes; the server's MAX_UPLOAD_BYTES).";

describe('upload size limit (MAX_UPLOAD_BYTES = 1024)', () => {
    let t: TestServer;
    let account: TestAccount;
    beforeAll(async () => {
        t = await startTestServer({ config: { maxUploadBytes: 1024 } });
        account = await createAccount(t);
    });
    afterAll(() => t.close());

    const expectNothingStored = async () => {
        const list = await t.request({ method: 'GET', url: '/api/uploads', headers: account.headers });
        expect(list.json).toEqual([]);
        expect(await storedBlobFiles(t)).toEqual([]);
    };

    it('answers 413 naming the limit when the declared length is far over it, and stores nothing', async () => {
        const res = await uploadCsv(t, account, csvOfSize(200 * 1024));
        expect(res.status).toBe(413);
        expect(res.json.message).toBe(LIMIT_MESSAGE);
        await expectNothingStored();
    });

    it('answers 413 while streaming when the file alone is over the limit, and stores nothing', async () => {
        const res = await uploadCsv(t, account, csvOfSize(1025));
        expect(res.status).toBe(413);
        expect(res.json.message).toBe(LIMIT_MESSAGE);
        await expectNothingStored();
    });

    it('counts bytes itself when the body has no Content-Length (chunked)', async () => {
        const send = (size: number) => {
            const boundary = 'flowctl-test-boundary';
            const parts = [
                `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
                csvOfSize(size),
                `\r\n--${boundary}--\r\n`
            ];
            const body = new ReadableStream({
                pull(controller) {
                    const next = parts.shift();
                    if (next === undefined) {
                        controller.close();
                    } else {
                        controller.enqueue(new TextEncoder().encode(next));
                    }
                }
            });
            return fetch(`${t.url}/api/uploads`, {
                method: 'POST',
                body,
                duplex: 'half',
                headers: { ...account.headers, 'content-type': `multipart/form-data; boundary=${boundary}` }
            } as RequestInit);
        };

        const over = await send(4096);
        expect(over.status).toBe(413);
        expect(((await over.json()) as { message: string }).message).toBe(LIMIT_MESSAGE);
        await expectNothingStored();

        const exact = await send(1024);
        expect(exact.status).toBe(201);
        expect(await exact.json()).toMatchObject({ sizeBytes: 1024, columns: ['value'] });
    });
});
