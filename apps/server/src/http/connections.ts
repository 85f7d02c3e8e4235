import Http from 'node:http';
import type Net from 'node:net';

/**
 * The HTTP listener, with the limits a hostile client would otherwise set: Node's own defaults let the
 * headers take 60 s and a whole request 5 minutes (hapi keeps them), and any number of connections
 * from one address may dribble in at once.
 *
 * - A request's headers must arrive within min(60 s, the deadline); a body past the deadline is
 *   answered 408 by request-bodies.ts, and Node's own check (checked every second) is the backstop
 *   a few seconds later.
 * - After an early answer the connection closes lingering (see lingeringClose).
 * - At most `maxPerClient` open connections per client address: one more is answered 429 and closed
 *   before anything of it is read. Behind a reverse proxy every client has the proxy's address.
 */
// After an answer given before the body was read (413, 401, 404…), what the client still sends is read
// and dropped for this long, or this many bytes, before the connection closes.
const LINGER_MS = 2000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * Lingering close. Node's HTTP server ends a `Connection: close` answer with socket.destroySoon(): the
 * socket closes as soon as the answer is written, with the rest of the body unread, so the kernel
 * resets the connection, and a client still sending gets EPIPE or ECONNRESET, often before it has read
 * the answer. Instead the write side is closed (FIN after the answer) and the body read on, discarded
 * (the request is already dumped), until the client is done, or for a bounded time and size.
 */
const lingeringClose = (socket: Net.Socket): void => {
    if (socket.destroyed) {
        return;
    }

    const start = socket.bytesRead;
    const close = () => {
        clearTimeout(timer);
        socket.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    socket.on('data', () => {
        if (socket.bytesRead - start > LINGER_BYTES) {
            close();
        }
    });
    socket.once('end', close);
    socket.once('close', () => clearTimeout(timer));
    socket.end();
    socket.resume();
};

/** Answers 429 without reading the request; what the client still sends is discarded for a moment, so it can read the answer. */
const refuse = (socket: Net.Socket, limit: number): void => {
    const body = JSON.stringify({
        statusCode: 429,
        error: 'Too Many Requests',
        message: `Too many connections from your address at once (at most ${limit}, the server's MAX_CONNECTIONS_PER_CLIENT): reuse connections or wait for some to finish.`
    });
    socket.on('error', () => {});
    socket.once('end', () => socket.destroy());
    socket.resume();
    socket.end(`HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`);
    setTimeout(() => socket.destroy(), 1000).unref();
};

export const createListener = (options: { requestTimeoutSeconds: number; maxConnectionsPerClient: number }): Http.Server => {
    const deadlineMs = options.requestTimeoutSeconds * 1000;
    const listener = Http.createServer({
        headersTimeout: Math.min(60_000, deadlineMs),
        requestTimeout: deadlineMs + 5_000,
        connectionsCheckingInterval: 1000
    });

    // The HTTP server's own connection handler starts parsing at once: a refused connection never reaches it.
    const [parse] = listener.listeners('connection') as ((socket: Net.Socket) => void)[];
    listener.removeAllListeners('connection');
    const open = new Map<string, number>();
    listener.on('connection', (socket: Net.Socket) => {
        const address = socket.remoteAddress ?? '';
        const count = (open.get(address) ?? 0) + 1;
        if (count > options.maxConnectionsPerClient) {
            refuse(socket, options.maxConnectionsPerClient);
            return;
        }

        open.set(address, count);
        socket.once('close', () => {
            const left = (open.get(address) ?? 1) - 1;
            if (left === 0) {
                open.delete(address);
            } else {
                open.set(address, left);
            }
        });
        (socket as Net.Socket & { destroySoon: () => void }).destroySoon = () => lingeringClose(socket);
        parse!.call(listener, socket);
    });

    return listener;
};
