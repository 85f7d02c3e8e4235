import { type AiAnswer, type AiRequest, toStorableValue } from '@flowctl/engine';
import type { Dispatcher } from 'undici';

import { privateAddressRefusal, publicOnly } from '../outbound.js';
import { EndpointConnectionError, EndpointStatusError, EndpointTimeoutError, postJson } from './http.js';
import { type AiLimiter, retryAfterMs } from './limiter.js';

export interface AiSettings {
    apiKey: string | null;
    baseUrl: string | null;
    model: string | null;
    /** An account's `ai.concurrency`: fewer calls in flight per AI node than AI_CONCURRENCY (never more). */
    concurrency?: number | null;
}

/** Settings to call with, and the agent that an account-chosen base URL must go through. */
export interface AiEndpoint extends AiSettings {
    dispatcher?: Dispatcher;
}

export const DEFAULT_MODEL = 'gpt-4o-mini';
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const AI_TIMEOUT_MS = 60_000;
/** 408, 409, other 5xx and connection errors are retried this many times (429 and 503: see complete()). */
export const AI_MAX_RETRIES = 3;

export const NO_KEY_MESSAGE =
    "no AI API key configured: set one with `flowctl settings ai set --api-key-stdin`, PUT /api/account/settings {ai:{apiKey}}, or the server's OPENAI_API_KEY";

/**
 * The account's settings over the server's. Key and base URL go together: an account's base URL is
 * used with the account's own key only, so the server's key is never sent where an account points.
 * An account's base URL reaches private addresses only with ALLOW_PRIVATE_NETWORK; the server's own
 * (OPENAI_BASE_URL, say a model served on this machine) always may.
 */
export const mergeAiSettings = (account: AiSettings | null, server: AiSettings, allowPrivateNetwork: boolean): AiEndpoint => {
    const model = account?.model ?? server.model;
    const concurrency = account?.concurrency ? { concurrency: account.concurrency } : {};
    if (account?.apiKey) {
        return { apiKey: account.apiKey, baseUrl: account.baseUrl, model, ...concurrency, ...(account.baseUrl && !allowPrivateNetwork ? { dispatcher: publicOnly } : {}) };
    }

    return { apiKey: server.apiKey, baseUrl: server.baseUrl, model, ...concurrency };
};

const snippet = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** A node error a user can act on, whatever the call threw. */
const describe = (err: unknown, baseUrl: string): Error => {
    if (err instanceof EndpointTimeoutError) {
        return new Error(`the language-model request timed out after ${AI_TIMEOUT_MS / 1000} s (${baseUrl})`);
    }

    if (err instanceof EndpointConnectionError) {
        return new Error(`could not reach the language-model endpoint ${baseUrl}: ${privateAddressRefusal(err)?.message ?? err.message}`);
    }

    if (err instanceof EndpointStatusError) {
        const hint =
            err.status === 401
                ? ' (check the AI API key)'
                : err.status === 403
                  ? ' (the AI API key may not use this model or endpoint)'
                  : err.status === 404
                    ? ' (check the model name and base URL)'
                    : '';
        return new Error(`the language-model endpoint answered HTTP ${err.status}${hint}: ${snippet(err.message)}`);
    }

    return err instanceof Error ? err : new Error(String(err));
};

/** What a call needs besides the request: the node's limiter and how long it may wait out 429s. */
export interface CallOptions {
    limiter: AiLimiter;
    /** AI_RETRY_BUDGET_MS: how long one call may keep being answered 429 or 503 before the node fails. */
    retryBudgetMs: number;
    signal: AbortSignal;
    /** Called on each 429/503: the endpoint answered, so the run is alive though it waits (the watchdog's progress). */
    onThrottled?(): void;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
        const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            if (signal.aborted) reject(signal.reason);
            else resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener('abort', done);
    });

/** Waits before retrying a failure without a Retry-After: 0.5 s, 1 s, 2 s, … at most 8 s. */
const backoff = (attempt: number): number => Math.min(8_000, 500 * 2 ** (attempt - 1));

type Message = { role: 'system' | 'user' | 'assistant'; content: string };

const messagesFor = (request: AiRequest): Message[] => {
    const messages: Message[] = [];
    if (request.system) {
        messages.push({ role: 'system', content: request.system });
    }

    messages.push({ role: 'user', content: request.prompt });
    if (request.correction) {
        messages.push(
            { role: 'assistant', content: request.correction.reply },
            {
                role: 'user',
                content: `Your reply did not match the declared output schema: ${request.correction.problem}. Reply again with only a JSON object that matches the schema.`
            }
        );
    }

    return messages;
};

/**
 * One chat completion with structured output. Returns the reply parsed from JSON (or why it is not
 * JSON, for the engine to ask again); the engine checks it against the declared outputs. NUL
 * characters and lone surrogates in the reply (which the store cannot hold) become U+FFFD.
 *
 * Every request is seen by the node's limiter: a 429 or 503 slows the node down and is retried until
 * the retry budget is spent; other 5xx, 408, 409 and connection errors (but a private address
 * refused) are retried AI_MAX_RETRIES times; other statuses fail at once (no redirect is followed).
 */
export const complete = async (settings: AiEndpoint, request: AiRequest, options: CallOptions): Promise<AiAnswer> => {
    if (!settings.apiKey) {
        throw new Error(NO_KEY_MESSAGE);
    }

    const { limiter, signal } = options;
    const baseUrl = (settings.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const body = {
        model: request.model ?? settings.model ?? DEFAULT_MODEL,
        messages: messagesFor(request),
        response_format: { type: 'json_schema' as const, json_schema: { name: 'output', strict: true, schema: request.schema } }
    };
    const exchange = {
        url: `${baseUrl}/chat/completions`,
        apiKey: settings.apiKey,
        body,
        timeoutMs: AI_TIMEOUT_MS,
        signal,
        ...(settings.dispatcher ? { dispatcher: settings.dispatcher } : {})
    };
    const started = Date.now();
    let failures = 0;
    let completion: Completion;
    for (;;) {
        await limiter.acquire(signal);
        try {
            const { json, headers } = await postJson(exchange);
            limiter.succeeded(headers);
            completion = json as Completion;
            break;
        } catch (err) {
            if (signal.aborted) {
                throw new Error('the language-model request was cancelled');
            }

            if (err instanceof EndpointStatusError && (err.status === 429 || err.status === 503)) {
                const wait = retryAfterMs(err.headers) ?? backoff(++failures);
                if (Date.now() + wait - started > options.retryBudgetMs) {
                    const waited = Math.round((Date.now() - started) / 1000);
                    throw new Error(
                        `the language-model endpoint still answered HTTP ${err.status} after ${waited} s of retries (AI_RETRY_BUDGET_MS): ${snippet(err.message)}`
                    );
                }

                limiter.throttled(wait);
                options.onThrottled?.();
                continue;
            }

            // A private address is refused again on every try.
            const transient =
                (err instanceof EndpointConnectionError && !privateAddressRefusal(err)) ||
                (err instanceof EndpointStatusError && (err.status === 408 || err.status === 409 || err.status >= 500));
            if (transient && failures < AI_MAX_RETRIES) {
                failures++;
                await sleep((err instanceof EndpointStatusError ? retryAfterMs(err.headers) : null) ?? backoff(failures), signal);
                continue;
            }

            throw describe(err, baseUrl);
        } finally {
            limiter.release();
        }
    }

    return answerOf(completion);
};

/** What is read of a chat completion. */
interface Completion {
    choices?: { message?: { content?: string | null; refusal?: string | null }; finish_reason?: string }[];
    usage?: { prompt_tokens?: number; completion_tokens?: number };
}

const answerOf = (completion: Completion): AiAnswer => {
    const choice = completion.choices?.[0];
    if (!choice) {
        throw new Error('the language-model reply had no choices');
    }

    if (choice.message?.refusal) {
        throw new Error(`the language model refused: ${snippet(choice.message.refusal)}`);
    }

    if (choice.finish_reason === 'length') {
        throw new Error('the language-model reply was cut off at its token limit');
    }

    const content = choice.message?.content;
    if (!content) {
        throw new Error('the language-model reply was empty');
    }

    const usage = completion.usage ? { promptTokens: completion.usage.prompt_tokens ?? 0, completionTokens: completion.usage.completion_tokens ?? 0 } : undefined;
    try {
        return { reply: toStorableValue(JSON.parse(content)), text: content, ...(usage ? { usage } : {}) };
    } catch {
        return { reply: undefined, text: content, notJson: `the reply is not JSON: ${snippet(content)}`, ...(usage ? { usage } : {}) };
    }
};
