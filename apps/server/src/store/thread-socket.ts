import { Duplex } from 'node:stream';

// The messages between the server's thread and the embedded database's (embedded-thread.ts).

/** A connection's bytes, either way; null: that end is gone. */
export interface ThreadData {
    type: 'data';
    id: number;
    data: Uint8Array | null;
}

/** What the server's thread sends. */
export type ThreadRequest = { type: 'connect'; id: number } | ThreadData | { type: 'stop' };
/** What the database's thread answers. */
export type ThreadReply = { type: 'ready' } | { type: 'failed'; message: string } | ThreadData | { type: 'stopped' };

export interface ThreadStart {
    dir: string;
    /** Added to PGlite's defaults. */
    startParams: string[];
}

/** Hands the buffer over with the message (it is the sender's own copy: see ThreadSocket). */
export const transfer = (data: Uint8Array | null): ArrayBuffer[] => (data ? [data.buffer as ArrayBuffer] : []);

/** Sends one end's bytes to the other thread; null: this end is gone. */
export type Send = (data: Uint8Array | null) => void;

/**
 * One end of a connection between the server's thread and the embedded database's thread
 * (embedded-thread.ts), standing in for a TCP socket. Every connection crosses the one channel
 * between the two threads, so that statements reach the database in the order they were sent, as
 * on one socket (store/db.ts relies on it to share prepared statements between connections). Bytes
 * cross as transferred buffers: no copy on arrival.
 *
 * It has the few `net.Socket` methods that `pg` (connect, setNoDelay, setKeepAlive, ref, unref) and
 * pglite-socket's handler (setNoDelay, remoteAddress) call.
 */
export class ThreadSocket extends Duplex {
    readonly remoteAddress = 'in-process';
    readonly remotePort = 0;
    readonly #send: Send;
    /** The other end is gone: nothing more can be sent. */
    #peerGone = false;
    /** The other end was told that this one is gone. */
    #left = false;

    constructor(send: Send) {
        // A finished read side finishes the write side too, as a closed TCP connection does.
        super({ allowHalfOpen: false });
        this.#send = send;
    }

    /**
     * What the other end sent; null: it is gone. As a TCP connection without half-open ends, this end
     * then ends too (and says so, which the other end waits for): end of data, then close.
     */
    receive(data: Uint8Array | null): void {
        if (data === null) {
            this.#peerGone = true;
            this.push(null);
            this.destroy();
            return;
        }

        this.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }

    /** `pg` calls this, then waits for 'connect'. */
    connect(): this {
        process.nextTick(() => this.emit('connect'));
        return this;
    }

    setNoDelay(): this {
        return this;
    }

    setKeepAlive(): this {
        return this;
    }

    ref(): this {
        return this;
    }

    unref(): this {
        return this;
    }

    override _read(): void {}

    override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
        this.#cross([chunk], callback);
    }

    /**
     * What was written while the stream was corked crosses as one message: `pg` corks around the
     * messages of a statement (Bind, Execute, Sync), and the database's thread around its answer to
     * one, so a statement costs one message each way.
     */
    override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
        this.#cross(chunks.map(({ chunk }) => chunk), callback);
    }

    #cross(chunks: Buffer[], callback: (error?: Error | null) => void): void {
        if (this.#peerGone || this.#left) {
            callback(new Error('the embedded database connection is closed'));
            return;
        }

        // Copied once into a buffer of its own, which is handed over: a chunk may be a view on a bigger
        // buffer (Node's pool) or one its writer keeps (a constant message), and neither may cross or
        // be detached.
        const data = new Uint8Array(chunks.reduce((bytes, chunk) => bytes + chunk.byteLength, 0));
        let at = 0;
        for (const chunk of chunks) {
            data.set(chunk, at);
            at += chunk.byteLength;
        }

        try {
            this.#send(data);
        } catch (err) {
            callback(err as Error);
            return;
        }

        callback();
    }

    override _final(callback: (error?: Error | null) => void): void {
        this.#leave();
        callback();
    }

    override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
        this.#leave();
        callback(error);
    }

    #leave(): void {
        if (!this.#left) {
            this.#left = true;
            try {
                this.#send(null);
            } catch {
                // the other thread is gone already
            }
        }
    }
}
