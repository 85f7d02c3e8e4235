import Http from 'node:http';

export interface NodeClientAnswer {
    status: number;
    headers: Http.IncomingHttpHeaders;
    body: string;
}

/**
 * One request with Node's own http client, the body written in one go as most clients do, on a fresh
 * connection. Resolves with the answer once it is whole, even while the body is still being sent (an
 * error on the socket after that is the server's right after an early answer); rejects when the
 * connection fails before the whole answer arrived (EPIPE, ECONNRESET).
 */
export const nodeRequest = (baseUrl: string, options: { method: string; path: string; headers: Record<string, string>; body: Buffer | string }): Promise<NodeClientAnswer> =>
    new Promise((resolve, reject) => {
        const url = new URL(baseUrl);
        let settled = false;
        const req = Http.request({ host: url.hostname, port: url.port, method: options.method, path: options.path, headers: options.headers, agent: false }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
                settled = true;
                resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
            });
            res.on('error', (err) => {
                if (!settled) {
                    settled = true;
                    reject(err);
                }
            });
        });
        req.on('error', (err) => {
            if (!settled) {
                settled = true;
                reject(err);
            }
        });
        req.end(options.body);
    });
