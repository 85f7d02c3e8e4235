import Crypto from 'node:crypto';
import Http from 'node:http';

import type { Json } from './run-fixtures.js';

/** One answer of the stub: a chat completion whose message content is `content`, or an error. */
export interface StubReply {
    status?: number;
    headers?: Record<string, string>;
    /** The assistant message's content (JSON text for structured output). */
    content?: string | null;
    refusal?: string;
    /** Error message for a non-2xx status. */
    error?: string;
    /** The reply is sent once this settles (to keep a run RUNNING, or make runs overlap). */
    after?: Promise<unknown>;
}

export interface RecordedRequest {
    path: string;
    headers: Http.IncomingHttpHeaders;
    body: Json;
}

export interface OpenAiStub {
    /** For OPENAI_BASE_URL / the account's baseUrl: `http://127.0.0.1:<port>/v1`. */
    baseUrl: string;
    requests: RecordedRequest[];
    /** Requests being answered right now, and the most there ever were at once. */
    inFlight: number;
    peak: number;
    /** Resolves once `count` requests have arrived in all. */
    waitForRequests(count: number, timeoutMs?: number): Promise<void>;
    /** Resolves once no request is being answered (each answered, or given up by the client). */
    waitForIdle(timeoutMs?: number): Promise<void>;
    /** Answers for the next requests, in order; after them `fallback` answers. */
    queue(...replies: StubReply[]): void;
    /** Answers every request not covered by queue(); given the request body. */
    fallback(reply: StubReply | ((body: Json) => StubReply)): void;
    close(): Promise<void>;
}

/** A real HTTP server speaking the OpenAI chat-completions protocol, scripted per test. */
export const startOpenAiStub = async (): Promise<OpenAiStub> => {
    const requests: RecordedRequest[] = [];
    const queued: StubReply[] = [];
    let fallback: StubReply | ((body: Json) => StubReply) = { status: 500, error: 'no reply scripted for this request' };

    let waiters: (() => void)[] = [];
    const stub = { inFlight: 0, peak: 0 };
    const server = Http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
            let body: Json;
            try {
                body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
                body = null;
            }

            requests.push({ path: req.url ?? '', headers: req.headers, body });
            for (const wake of waiters) {
                wake();
            }

            if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
                res.writeHead(404, { 'content-type': 'application/json' });
                res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } }));
                return;
            }

            const reply = queued.shift() ?? (typeof fallback === 'function' ? fallback(body) : fallback);
            stub.inFlight++;
            stub.peak = Math.max(stub.peak, stub.inFlight);
            res.on('close', () => {
                stub.inFlight--;
                for (const wake of waiters) {
                    wake();
                }
            });
            void Promise.resolve(reply.after).finally(() => respond(res, reply, body));
        });
    });

    const respond = (res: Http.ServerResponse, reply: StubReply, body: Json) => {
        if (res.destroyed) {
            return;
        }

        const status = reply.status ?? 200;
        res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
        if (status >= 400) {
            res.end(JSON.stringify({ error: { message: reply.error ?? `HTTP ${status}`, type: 'server_error', code: null } }));
            return;
        }

        res.end(
            JSON.stringify({
                id: `chatcmpl-${Crypto.randomBytes(6).toString('hex')}`,
                object: 'chat.completion',
                created: Math.floor(Date.now() / 1000),
                model: body?.model ?? 'unknown',
                choices: [
                    {
                        index: 0,
                        message: { role: 'assistant', content: reply.content ?? null, refusal: reply.refusal ?? null },
                        finish_reason: 'stop',
                        logprobs: null
                    }
                ],
                usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 }
            })
        );
    };

    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return {
        baseUrl: `http://127.0.0.1:${port}/v1`,
        requests,
        get inFlight() {
            return stub.inFlight;
        },
        get peak() {
            return stub.peak;
        },
        waitForRequests(count, timeoutMs = 10_000) {
            return new Promise<void>((resolve, reject) => {
                const check = () => {
                    if (requests.length >= count) {
                        clearTimeout(timer);
                        waiters = waiters.filter((w) => w !== check);
                        resolve();
                    }
                };
                const timer = setTimeout(() => {
                    waiters = waiters.filter((w) => w !== check);
                    reject(new Error(`expected ${count} model requests within ${timeoutMs} ms, got ${requests.length}`));
                }, timeoutMs);
                waiters.push(check);
                check();
            });
        },
        waitForIdle(timeoutMs = 10_000) {
            return new Promise<void>((resolve, reject) => {
                const check = () => {
                    if (stub.inFlight === 0) {
                        clearTimeout(timer);
                        waiters = waiters.filter((w) => w !== check);
                        resolve();
                    }
                };
                const timer = setTimeout(() => {
                    waiters = waiters.filter((w) => w !== check);
                    reject(new Error(`${stub.inFlight} model requests still being answered after ${timeoutMs} ms`));
                }, timeoutMs);
                waiters.push(check);
                check();
            });
        },
        queue: (...replies) => queued.push(...replies),
        fallback(reply) {
            fallback = reply;
        },
        close: () =>
            new Promise<void>((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            })
    };
};
