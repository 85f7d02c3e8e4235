import { Agent, type Dispatcher, interceptors, type RetryHandler } from 'undici';

import { AbortError, ConnectionError, TimeoutError } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What can be sent as a request body. Async iterables are streamed (chunked or with a given length). */
export type RequestBody = string | Uint8Array | AsyncIterable<Uint8Array>;

/** A `fetch` compatible with undici's: it is handed the client's dispatcher in `init.dispatcher`. */
export type FetchLike = (input: string, init: Record<string, unknown>) => Promise<Response>;

export interface WireRequest {
    method: HttpMethod;
    /** Absolute URL. */
    url: URL;
    headers: Record<string, string>;
    body?: RequestBody | undefined;
    signal?: AbortSignal | undefined;
    timeoutMs: number;
}

export interface WireResponse {
    status: number;
    /** Lower-case names; repeated headers joined with ", ". */
    headers: Record<string, string>;
    /** Parsed JSON, text for other content types, undefined when there is no body. */
    body: unknown;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RETRY_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ENOTFOUND', 'ENETUNREACH', 'EHOSTUNREACH', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8000;
// A server asking for a longer pause than this is not waited for: the caller gets the RateLimitError.
const MAX_RETRY_AFTER_MS = 60_000;

/** Jittered exponential backoff: 0.5 s doubling, at most 8 s, each delay drawn from [½, 1] of its step. */
export const backoffDelay = (attempt: number): number => {
    const step = Math.min(FIRST_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
    return step * (0.5 + Math.random() * 0.5);
};

const retryAfterMs = (value: string | string[] | undefined): number | undefined => {
    const raw = Array.isArray(value) ? value[0] : value;
    if (!raw) {
        return undefined;
    }

    const seconds = Number(raw);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(raw) - Date.now();
    return Number.isNaN(ms) ? undefined : Math.max(0, ms);
};

/**
 * undici's retry interceptor decides with this: only requests that can be replayed safely (idempotent
 * methods, or a POST carrying an Idempotency-Key the server deduplicates on), only for 429 / 502 / 503 /
 * 504 and broken connections, at most `maxRetries` times.
 */
const retryPolicy =
    (maxRetries: number): RetryHandler.RetryCallback =>
    (err, { state, opts }, next) => {
        const { statusCode, code, headers } = err as Error & { statusCode?: number; code?: string; headers?: Record<string, string | string[]> };
        const requestHeaders = (opts.headers ?? {}) as Record<string, string>;
        const replayable = IDEMPOTENT.has(opts.method) || requestHeaders['idempotency-key'] !== undefined;
        const retryable = code === 'UND_ERR_REQ_RETRY' ? RETRY_STATUSES.has(statusCode ?? 0) : RETRY_CODES.has(code ?? '');
        if (!replayable || !retryable || state.counter > maxRetries) {
            next(err);
            return;
        }

        const asked = statusCode === 429 || statusCode === 503 ? retryAfterMs(headers?.['retry-after']) : undefined;
        if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
            next(err);
            return;
        }

        const signal = (opts as { signal?: AbortSignal }).signal;
        if (signal?.aborted) {
            next(err);
            return;
        }

        const onAbort = () => {
            clearTimeout(timer);
            next(err);
        };
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            next(null);
        }, asked ?? backoffDelay(state.counter));
        signal?.addEventListener('abort', onAbort, { once: true });
    };

const headerRecord = (raw: Record<string, string | string[] | undefined>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw)) {
        if (value !== undefined) {
            out[name] = Array.isArray(value) ? value.join(', ') : value;
        }
    }

    return out;
};

const isJson = (contentType: string | undefined) => contentType !== undefined && /[/+]json\b/i.test(contentType);

/** One keep-alive undici Agent with the retry policy composed in; `fetch` optionally replaces undici.request. */
export class Transport {
    readonly dispatcher: Dispatcher;
    readonly #agent: Agent;
    readonly #fetch: FetchLike | undefined;

    constructor(options: { maxRetries: number; fetch?: FetchLike | undefined }) {
        this.#agent = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
        this.#fetch = options.fetch;
        this.dispatcher = this.#agent.compose(
            interceptors.retry({ retry: retryPolicy(options.maxRetries), throwOnError: false, maxRetries: options.maxRetries })
        );
    }

    async send(request: WireRequest): Promise<WireResponse> {
        try {
            return this.#fetch ? await this.#sendFetch(request) : await this.#sendUndici(request);
        } catch (err) {
            throw this.#wireError(err, request);
        }
    }

    close(): Promise<void> {
        return this.#agent.close();
    }

    async #sendUndici(request: WireRequest): Promise<WireResponse> {
        const res = await this.dispatcher.request({
            origin: request.url.origin,
            path: request.url.pathname + request.url.search,
            method: request.method,
            headers: request.headers,
            // undici streams async iterables (with backpressure); its types list only Readable.
            body: (request.body ?? null) as Dispatcher.RequestOptions['body'],
            signal: request.signal,
            headersTimeout: request.timeoutMs,
            bodyTimeout: request.timeoutMs
        });
        const headers = headerRecord(res.headers);
        let body: unknown;
        if (res.statusCode === 204 || res.statusCode === 304) {
            await res.body.dump();
        } else if (isJson(headers['content-type'])) {
            body = await res.body.json();
        } else {
            const text = await res.body.text();
            body = text === '' ? undefined : text;
        }

        return { status: res.statusCode, headers, body };
    }

    async #sendFetch(request: WireRequest): Promise<WireResponse> {
        const timeout = AbortSignal.timeout(request.timeoutMs);
        const res = await this.#fetch!(request.url.toString(), {
            method: request.method,
            headers: request.headers,
            body: request.body,
            duplex: 'half',
            // Like undici.request: no redirect is followed, so no request leaves the client's base URL.
            redirect: 'manual',
            signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
            dispatcher: this.dispatcher
        });
        const headers: Record<string, string> = {};
        res.headers.forEach((value, name) => {
            headers[name] = value;
        });
        const text = await res.text();
        const body = text === '' ? undefined : isJson(headers['content-type']) ? JSON.parse(text) : text;
        return { status: res.status, headers, body };
    }

    #wireError(err: unknown, request: WireRequest): Error {
        if (request.signal?.aborted) {
            return new AbortError('The request was aborted', { cause: request.signal.reason });
        }

        const code = (err as { code?: string; name?: string } | null)?.code;
        const name = (err as { name?: string } | null)?.name;
        const what = `${request.method} ${request.url.pathname}`;
        if (TIMEOUT_CODES.has(code ?? '') || name === 'TimeoutError') {
            return new TimeoutError(`${what}: no answer within ${request.timeoutMs} ms`, { cause: err });
        }

        const reason = err instanceof Error ? err.message : String(err);
        return new ConnectionError(`${what}: could not reach ${request.url.origin} (${reason})`, { cause: err });
    }
}
