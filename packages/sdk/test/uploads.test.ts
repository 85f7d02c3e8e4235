import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';
import { Readable } from 'node:stream';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Flowctl } from '../src/index.js';
import { clientFor, csv, signUp, startTestServer, type TestServer } from './server.js';

const MB = 1_000_000;
const LINE = 'someone@example.test,Some Person With A Long Name,Somewhere\n';

/** `bytes` of CSV (header + identical rows), produced on demand: nothing of it exists in memory at once. */
function* csvChunks(bytes: number): Generator<Buffer> {
    const header = Buffer.from('email,name,city\n');
    const block = Buffer.from(LINE.repeat(1000));
    yield header;
    let left = bytes - header.length;
    while (left >= LINE.length) {
        const rows = Math.min(1000, Math.floor(left / LINE.length));
        const chunk = rows === 1000 ? block : block.subarray(0, rows * LINE.length);
        left -= chunk.length;
        yield Buffer.from(chunk);
    }
}

const rowsIn = (bytes: number) => Math.floor((bytes - 'email,name,city\n'.length) / LINE.length);

describe('uploads.create() streams', () => {
    let t: TestServer;
    let client: Flowctl;
    let dir: string;

    beforeAll(async () => {
        t = await startTestServer();
        client = clientFor(t, await signUp(t));
        dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-sdk-upload-'));
    });

    afterAll(async () => {
        await client?.close();
        await t?.close();
        Fs.rmSync(dir, { recursive: true, force: true });
    });

    it('a 50 MB file from a path, with its exact length, arrives whole', async () => {
        const path = Path.join(dir, 'big.csv');
        await new Promise<void>((resolve, reject) => Readable.from(csvChunks(50 * MB)).pipe(Fs.createWriteStream(path)).on('finish', resolve).on('error', reject));
        const size = Fs.statSync(path).size;
        const upload = await client.uploads.create(path);
        expect(upload).toMatchObject({ filename: 'big.csv', rows: rowsIn(50 * MB), sizeBytes: size, columns: ['email', 'name', 'city'] });
    });

    it('a Readable of unknown length, sent chunked', async () => {
        let produced = 0;
        const source = Readable.from(
            (function* () {
                for (const chunk of csvChunks(8 * MB)) {
                    produced += chunk.length;
                    yield chunk;
                }
            })()
        );
        const upload = await client.uploads.create(source, { filename: 'stream.csv' });
        expect(upload).toMatchObject({ filename: 'stream.csv', rows: rowsIn(8 * MB), sizeBytes: produced });
    });

    it('a Blob and a Uint8Array; a name with quotes and line breaks cannot break the multipart header', async () => {
        const blob = await client.uploads.create(new Blob([csv(2)]), { filename: 'a "quoted"\r\nname.csv' });
        expect(blob).toMatchObject({ rows: 2 });
        expect(blob.filename).not.toMatch(/[\r\n]/);
        const bytes = await client.uploads.create(new TextEncoder().encode(csv(5)));
        expect(bytes).toMatchObject({ rows: 5, filename: 'upload.csv' });
    });
});
