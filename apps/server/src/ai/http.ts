import { type Dispatcher, errors, request } from 'undici';

/**
 * One chat-completions exchange over undici's request(), not fetch(): a per-row AI node makes
 * thousands of calls, and each fetch() (through the OpenAI SDK) allocated about 150 KB of web
 * streams, abort plumbing and SDK request state, much of it living long enough to be promoted, so a
 * 10,000-row node grew the worker's heap by 150 MB. Here a call allocates its body text and little else.
 */

/** Reads a header by name, case-insensitively (what the limiter needs of a reply). */
export interface HeaderReader {
    get(name: string): string | null;
}

/** The endpoint answered with a status other than 2xx; `message` as the OpenAI SDK words it ("401 Incorrect API key provided"). */
export class EndpointStatusError extends Error {
    constructor(
        readonly status: number,
        message: string,
        readonly headers: HeaderReader
    ) {
        super(message);
    }
}

/** No answer within the time allowed. */
export class EndpointTimeoutError extends Error {}

/** The endpoint could not be reached (refused, reset, unresolvable, a private address). */
export class EndpointConnectionError extends Error {}

export interface Exchange {
    url: string;
    apiKey: string;
    body: unknown;
    timeoutMs: number;
    signal: AbortSignal;
    /** For an account's base URL without ALLOW_PRIVATE_NETWORK: the agent that refuses private addresses. */
    dispatcher?: Dispatcher;
}

const headerReader = (headers: Record<string, string | string[] | undefined>): HeaderReader => ({
    get(name) {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    }
});

const parse = (text: string): unknown => {
    try {
        return JSON.parse(text);
    } catch {
        return undefined;
    }
};

/** The error message the OpenAI SDK would give for this status and body, so node errors stay as they were. */
const statusMessage = (status: number, text: string): string => {
    const json = parse(text) as { error?: { message?: unknown } } | undefined;
    const error = json?.error;
    const message = error?.message
        ? typeof error.message === 'string'
            ? error.message
            : JSON.stringify(error.message)
        : error
          ? JSON.stringify(error)
          : json === undefined && text
            ? text
            : undefined;
    return message ? `${status} ${message}` : `${status} status code (no body)`;
};

/** POSTs the request; resolves with the parsed 2xx reply and its headers, or throws one of the errors above. */
export const postJson = async (exchange: Exchange): Promise<{ json: unknown; headers: HeaderReader }> => {
    let status: number;
    let headers: HeaderReader;
    let text: string;
    try {
        const response = await request(exchange.url, {
            method: 'POST',
            headers: { authorization: `Bearer ${exchange.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify(exchange.body),
            signal: exchange.signal,
            headersTimeout: exchange.timeoutMs,
            bodyTimeout: exchange.timeoutMs,
            ...(exchange.dispatcher ? { dispatcher: exchange.dispatcher } : {})
        });
        status = response.statusCode;
        headers = headerReader(response.headers);
        text = await response.body.text();
    } catch (err) {
        if (exchange.signal.aborted) {
            throw err;
        }

        if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError) {
            throw new EndpointTimeoutError('timed out', { cause: err });
        }

        throw new EndpointConnectionError((err as Error).message, { cause: err });
    }

    if (status < 200 || status >= 300) {
        throw new EndpointStatusError(status, statusMessage(status, text), headers);
    }

    const json = parse(text);
    if (json === undefined) {
        throw new Error(`the language-model endpoint answered HTTP ${status} with a body that is not JSON: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`);
    }

    return { json, headers };
};
