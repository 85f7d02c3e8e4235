import Crypto from 'node:crypto';
import Fs from 'node:fs';
import Path from 'node:path';
import type { Readable } from 'node:stream';

/** A file to upload: a path on disk, a readable stream, bytes in memory, or a Blob (e.g. `fs.openAsBlob()`). */
export type Uploadable = string | Readable | Uint8Array | Blob;

// Small fixed chunks keep what is in flight bounded: the socket takes a chunk, the next is read only then.
const CHUNK_BYTES = 64 * 1024;
// A file is read into a ring of buffers used in turn, not a fresh buffer per chunk: fresh ones are
// garbage V8 collects lazily (tens of MB of RSS for a big file). undici asks for the next chunk only once
// the socket has taken the previous one (written, or drained), so a buffer is free again long before its
// turn comes round.
const RING = 8;

export interface MultipartBody {
    contentType: string;
    /** Exact body length when the source's size is known (path, bytes, Blob); otherwise chunked. */
    length: number | undefined;
    /** Makes the body; false `replayable` means it can be made once only (a stream). */
    body: () => AsyncIterable<Uint8Array>;
    replayable: boolean;
}

// RFC 7578 §4.2 via the WHATWG encoding: quotes and line breaks escaped so a name cannot break the header.
const quoteFilename = (name: string) => name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

const isReadable = (value: unknown): value is Readable =>
    typeof (value as Readable | null)?.pipe === 'function' && typeof (value as Readable)[Symbol.asyncIterator] === 'function';

async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES) {
        yield bytes.subarray(at, at + CHUNK_BYTES);
    }
}

async function* fileChunks(path: string): AsyncGenerator<Uint8Array> {
    const handle = await Fs.promises.open(path, 'r');
    const ring = Array.from({ length: RING }, () => Buffer.allocUnsafeSlow(CHUNK_BYTES));
    try {
        for (let turn = 0; ; turn++) {
            const buffer = ring[turn % RING]!;
            const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
            if (bytesRead === 0) {
                return;
            }

            yield buffer.subarray(0, bytesRead);
        }
    } finally {
        await handle.close();
    }
}

async function* blobChunks(blob: Blob): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < blob.size; at += CHUNK_BYTES) {
        yield new Uint8Array(await blob.slice(at, at + CHUNK_BYTES).arrayBuffer());
    }
}

async function* streamChunks(stream: AsyncIterable<unknown>): AsyncGenerator<Uint8Array> {
    for await (const chunk of stream) {
        yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
    }
}

async function* envelope(head: Buffer, content: AsyncIterable<Uint8Array>, tail: Buffer): AsyncGenerator<Uint8Array> {
    yield head;
    yield* content;
    yield tail;
}

/**
 * A multipart/form-data body with the file in field `field`, produced chunk by chunk as the connection
 * takes it: the file is never held in memory whole.
 */
export const multipartFile = async (source: Uploadable, options: { field: string; filename?: string | undefined; contentType?: string | undefined }): Promise<MultipartBody> => {
    let content: () => AsyncIterable<Uint8Array>;
    let size: number | undefined;
    let filename = options.filename;
    let replayable = true;
    if (typeof source === 'string') {
        size = (await Fs.promises.stat(source)).size;
        filename ??= Path.basename(source);
        content = () => fileChunks(source);
    } else if (source instanceof Uint8Array) {
        size = source.byteLength;
        content = () => slices(source);
    } else if (typeof Blob !== 'undefined' && source instanceof Blob) {
        size = source.size;
        filename ??= (source as Blob & { name?: string }).name;
        content = () => blobChunks(source);
    } else if (isReadable(source)) {
        const path = (source as Readable & { path?: unknown }).path;
        filename ??= typeof path === 'string' ? Path.basename(path) : undefined;
        replayable = false;
        content = () => streamChunks(source);
    } else {
        throw new TypeError('uploads.create(): the file must be a path, a Readable, a Buffer/Uint8Array or a Blob');
    }

    const boundary = `----flowctl-${Crypto.randomBytes(12).toString('hex')}`;
    const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${options.field}"; filename="${quoteFilename(filename ?? 'upload.csv')}"\r\n` +
            `Content-Type: ${options.contentType ?? 'text/csv'}\r\n\r\n`
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    return {
        contentType: `multipart/form-data; boundary=${boundary}`,
        length: size === undefined ? undefined : head.byteLength + size + tail.byteLength,
        body: () => envelope(head, content(), tail),
        replayable
    };
};
