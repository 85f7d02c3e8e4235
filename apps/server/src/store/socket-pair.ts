import { Duplex } from 'node:stream';

/**
 * Two connected in-memory streams that stand in for the two ends of a TCP connection: what one end
 * writes, the other reads. Each end has the few `net.Socket` methods that `pg` (connect, setNoDelay,
 * setKeepAlive, ref, unref) and pglite-socket's handler (setNoDelay, remoteAddress) call.
 *
 * Node 22.6 has `stream.duplexPair()`, but the server also runs on Node 20, and neither end of that
 * one has the socket methods.
 */
export class SocketEnd extends Duplex {
    peer: SocketEnd | null = null;
    readonly remoteAddress = 'in-process';
    readonly remotePort = 0;

    constructor() {
        // A finished read side finishes the write side too, as a closed TCP connection does.
        super({ allowHalfOpen: false });
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
        if (!this.peer || this.peer.destroyed) {
            callback(new Error('the embedded database connection is closed'));
            return;
        }

        this.peer.push(chunk);
        callback();
    }

    /**
     * What was written while the stream was corked arrives as one chunk: `pg` corks around the
     * messages of a statement (Bind, Execute, Sync), and the database end then takes them in one
     * call (embedded-batch.ts) instead of three.
     */
    override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
        if (!this.peer || this.peer.destroyed) {
            callback(new Error('the embedded database connection is closed'));
            return;
        }

        this.peer.push(chunks.length === 1 ? chunks[0]!.chunk : Buffer.concat(chunks.map(({ chunk }) => chunk)));
        callback();
    }

    override _final(callback: (error?: Error | null) => void): void {
        this.peer?.push(null);
        callback();
    }

    override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
        const peer = this.peer;
        this.peer = null;
        if (peer && !peer.destroyed) {
            // The other end sees the connection go, as after a reset: end of data, then close.
            peer.push(null);
            peer.destroy();
        }

        callback(error);
    }
}

export const socketPair = (): [SocketEnd, SocketEnd] => {
    const a = new SocketEnd();
    const b = new SocketEnd();
    a.peer = b;
    b.peer = a;
    return [a, b];
};
