import { Transform, type TransformCallback } from 'node:stream';

import { SLICE_MS } from '@flowctl/engine';

// A run's DATA_SOURCE parses its upload in the process that also answers HTTP requests. csv-parse
// parses each chunk it is given in one synchronous go, and the chunks are large: 64 KiB from a file,
// 1 MiB from PostgreSQL's upload_chunks — 16,000 to 250,000 short rows, hundreds of milliseconds to
// seconds of parsing and typing during which no request is answered. PaceChunks cuts the bytes into
// pieces small enough to parse in a few milliseconds and, once a slice's worth of time has passed
// (the parsing downstream runs inside push), gives way to the event loop before the next piece.

/** The most bytes handed on at once: about 4,000 of the shortest rows, a few milliseconds of parsing. */
export const PIECE_BYTES = 16 * 1024;

export class PaceChunks extends Transform {
    #since = performance.now();

    override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
        this.#handOn(chunk, 0, callback);
    }

    #handOn(chunk: Buffer, from: number, callback: TransformCallback): void {
        let at = from;
        while (at < chunk.length) {
            if (performance.now() - this.#since >= SLICE_MS) {
                // setImmediate: pending I/O (requests) is served first. A destroyed stream stops here.
                setImmediate(() => {
                    this.#since = performance.now();
                    if (!this.destroyed) {
                        this.#handOn(chunk, at, callback);
                    }
                });
                return;
            }

            this.push(chunk.subarray(at, at + PIECE_BYTES));
            at += PIECE_BYTES;
        }

        callback();
    }
}
