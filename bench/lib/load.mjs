// Load generation shared by the benchmarks: bounded-concurrency loops and a keep-alive HTTP client.
import Http from 'node:http';

/** Runs `task(i)` `total` times, `concurrency` at a time; returns the elapsed ms. */
export const pool = async (total, concurrency, task) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
        Array.from({ length: concurrency }, async () => {
            while (next < total) {
                await task(next++);
            }
        })
    );
    return performance.now() - started;
};

/** Runs `task()` with `concurrency` workers for `seconds`; returns [count, elapsed ms]. */
export const forSeconds = async (seconds, concurrency, task) => {
    let count = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await Promise.all(
        Array.from({ length: concurrency }, async () => {
            while (performance.now() < deadline) {
                await task();
                count++;
            }
        })
    );
    return [count, performance.now() - started];
};

/**
 * Keep-alive requests through node:http on up to `sockets` sockets, answering `{status, headers, text}`. The
 * client shares the machine's CPUs with the server, and fetch() costs several times more CPU per
 * request than this.
 */
export const createClient = (sockets) => {
    const agent = new Http.Agent({ keepAlive: true, maxSockets: sockets });
    const request = (url, { method = 'GET', headers = {}, body } = {}) =>
        new Promise((resolve, reject) => {
            const req = Http.request(url, { method, headers, agent }, (res) => {
                const chunks = [];
                res.on('data', (chunk) => chunks.push(chunk));
                res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
                res.on('error', reject);
            });
            req.on('error', reject);
            req.end(body);
        });
    return { request, close: () => agent.destroy() };
};

/** The parsed JSON body (null when empty), or an error naming the request when the status differs. */
export const expectStatus = (res, status, what) => {
    if (res.status !== status) {
        throw new Error(`${what} answered ${res.status}: ${res.text}`);
    }

    return res.text ? JSON.parse(res.text) : null;
};

/**
 * fetch()'s shape (status, headers.get, text, json) over createClient's keep-alive requests, for the
 * benchmarks' hot loops: the server is measured, not the client's CPU.
 */
export const leanFetch = (client) => async (url, options) => {
    const res = await client.request(url, options);
    return {
        status: res.status,
        headers: { get: (name) => res.headers[name.toLowerCase()] ?? null },
        text: async () => res.text,
        json: async () => JSON.parse(res.text)
    };
};
