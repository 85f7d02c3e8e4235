import Crypto from 'node:crypto';
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';
import { Readable } from 'node:stream';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Flowctl } from '../src/index.js';
import { storedBlobFiles } from '../../../apps/server/test/upload-fixtures.js';
import { clientFor, csv, signUp, startTestServer, type TestServer } from './server.js';

const MB = 1_000_000;
const HEADER = 'email,name,city\n';
// Every row differs (its number, zero-padded to a fixed width), so a chunk sent twice or out of order shows.
const line = (n: number) => `p${String(n).padStart(9, '0')}@example.test,Person With A Long Name,Somewhere\n`;
const LINE_BYTES = line(0).length;

/** `bytes` of CSV, produced on demand 1,000 rows at a time: nothing of it exists in memory at once. */
function* csvChunks(bytes: number): Generator<Buffer> {
    yield Buffer.from(HEADER);
    const rows = Math.floor((bytes - HEADER.length) / LINE_BYTES);
    for (let at = 0; at < rows; at += 1000) {
        let block = '';
        for (let n = at; n < Math.min(rows, at + 1000); n++) {
            block += line(n);
        }
        yield Buffer.from(block);
    }
}

const rowsIn = (bytes: number) => Math.floor((bytes - HEADER.length) / LINE_BYTES);
const sha256 = (path: string) => Crypto.createHash('sha256').update(Fs.readFileSync(path)).digest('hex');

describe('uploads.create() streams', () => {
    let t: TestServer;
    let client: Flowctl;
    let dir: string;

    beforeAll(async () => {
        t = await startTestServer({ config: { blobStore: 'files' } });
        client = clientFor(t, await signUp(t));
        dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-sdk-upload-'));
    });

    afterAll(async () => {
        await client?.close();
        await t?.close();
        Fs.rmSync(dir, { recursive: true, force: true });
    });

    it('a 50 MB file from a path, with its exact length, arrives byte for byte', async () => {
        const path = Path.join(dir, 'big.csv');
        await new Promise<void>((resolve, reject) => Readable.from(csvChunks(50 * MB)).pipe(Fs.createWriteStream(path)).on('finish', resolve).on('error', reject));
        const size = Fs.statSync(path).size;
        const upload = await client.uploads.create(path);
        expect(upload).toMatchObject({ filename: 'big.csv', rows: rowsIn(50 * MB), sizeBytes: size, columns: ['email', 'name', 'city'] });
        const stored = (await storedBlobFiles(t)).map((name) => Path.join(t.config.dataDir, 'uploads', name)).filter((file) => Fs.statSync(file).size === size);
        expect(stored).toHaveLength(1);
        expect(sha256(stored[0]!)).toBe(sha256(path));
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
