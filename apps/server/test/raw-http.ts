import Net from 'node:net';

export interface RawResponse {
    status: number;
    headers: Record<string, string>;
    body: string;
    // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly, like harness.request's json
    json: any;
}

export interface RawRequest {
    method: string;
    path: string;
    headers: Record<string, string>;
    /** Written in order; the connection then stays open (a client that stopped sending) unless `end`. */
    chunks?: (string | Buffer)[];
    end?: boolean;
    /** Aborting closes the connection: a client that gave up. */
    signal?: AbortSignal;
}

const parse = (raw: Buffer): RawResponse | null => {
    const headEnd = raw.indexOf('\r\n\r\n');
    if (headEnd === -1) {
        return null;
    }

    const [statusLine, ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }

    const length = Number(headers['content-length'] ?? 0);
    const rest = raw.subarray(headEnd + 4);
    if (rest.length < length) {
        return null;
    }

    const body = rest.subarray(0, length).toString('utf8');
    let json: unknown;
    try {
        json = body ? JSON.parse(body) : undefined;
    } catch {
        json = undefined;
    }

    return { status: Number(statusLine!.split(' ')[1]), headers, body, json };
};

/**
 * One HTTP/1.1 request written by hand on a real socket, for what fetch cannot do: a body that stops
 * arriving, a Content-Length the body never reaches. Resolves with the server's answer as soon as it
 * is whole, whether or not the body was sent; rejects if the server closes without one.
 */
export const rawRequest = (baseUrl: string, request: RawRequest): Promise<RawResponse> => {
    const url = new URL(baseUrl);
    return new Promise((resolve, reject) => {
        const socket = Net.connect({ host: url.hostname, port: Number(url.port) });
        let received = Buffer.alloc(0);
        request.signal?.addEventListener('abort', () => socket.destroy(), { once: true });
        socket.on('connect', () => {
            const head = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${url.host}`, ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`)];
            socket.write(`${head.join('\r\n')}\r\n\r\n`);
            for (const chunk of request.chunks ?? []) {
                socket.write(chunk);
            }

            if (request.end) {
                socket.end();
            }
        });
        socket.on('data', (data) => {
            received = Buffer.concat([received, data]);
            const response = parse(received);
            if (response) {
                socket.destroy();
                resolve(response);
            }
        });
        // A server that answers then resets the connection while we still write is fine: the answer counts.
        socket.on('error', () => {});
        socket.on('close', () => reject(new Error(`connection closed without a whole response (got ${received.length} bytes)`)));
    });
};
