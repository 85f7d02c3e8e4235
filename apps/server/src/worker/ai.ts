import { type AiRequest, toStorableValue } from '@flowctl/engine';
import OpenAI from 'openai';

import { outboundFetch, privateAddressRefusal } from '../outbound.js';

export interface AiSettings {
    apiKey: string | null;
    baseUrl: string | null;
    model: string | null;
}

/** Settings to call with, and the fetch that an account-chosen base URL must go through. */
export interface AiEndpoint extends AiSettings {
    fetch?: typeof fetch;
}

export const DEFAULT_MODEL = 'gpt-4o-mini';
export const AI_TIMEOUT_MS = 60_000;
/** The SDK retries 408, 409, 429 and 5xx with exponential backoff, honouring Retry-After. */
export const AI_MAX_RETRIES = 3;

export const NO_KEY_MESSAGE =
    "no AI API key configured: set one with PUT /api/account/settings {ai:{apiKey}} or the server's OPENAI_API_KEY";

/**
 * The account's settings over the server's. Key and base URL go together: an account's base URL is
 * used with the account's own key only, so the server's key is never sent where an account points.
 * An account's base URL reaches private addresses only with ALLOW_PRIVATE_NETWORK; the server's own
 * (OPENAI_BASE_URL, say a model served on this machine) always may.
 */
export const mergeAiSettings = (account: AiSettings | null, server: AiSettings, allowPrivateNetwork: boolean): AiEndpoint => {
    const model = account?.model ?? server.model;
    if (account?.apiKey) {
        return { apiKey: account.apiKey, baseUrl: account.baseUrl, model, ...(account.baseUrl ? { fetch: outboundFetch(allowPrivateNetwork) } : {}) };
    }

    return { apiKey: server.apiKey, baseUrl: server.baseUrl, model };
};

const snippet = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** A node error a user can act on, whatever the SDK threw. */
const describe = (err: unknown, baseUrl: string): Error => {
    if (err instanceof OpenAI.APIConnectionTimeoutError) {
        return new Error(`the language-model request timed out after ${AI_TIMEOUT_MS / 1000} s (${baseUrl})`);
    }

    if (err instanceof OpenAI.APIUserAbortError) {
        return new Error('the language-model request was cancelled');
    }

    if (err instanceof OpenAI.APIConnectionError) {
        return new Error(`could not reach the language-model endpoint ${baseUrl}: ${privateAddressRefusal(err)?.message ?? err.message}`);
    }

    if (err instanceof OpenAI.APIError) {
        const hint = err.status === 401 ? ' (check the AI API key)' : err.status === 404 ? ' (check the model name and base URL)' : '';
        return new Error(`the language-model endpoint answered HTTP ${err.status}${hint}: ${snippet(err.message)}`);
    }

    return err instanceof Error ? err : new Error(String(err));
};

/**
 * One chat completion with structured output. Returns the reply parsed from JSON; the engine checks
 * it against the declared outputs. NUL characters and lone surrogates in the reply (which the store
 * cannot hold) become U+FFFD.
 */
export const complete = async (settings: AiEndpoint, request: AiRequest, signal: AbortSignal): Promise<unknown> => {
    if (!settings.apiKey) {
        throw new Error(NO_KEY_MESSAGE);
    }

    const client = new OpenAI({
        apiKey: settings.apiKey,
        baseURL: settings.baseUrl ?? undefined,
        timeout: AI_TIMEOUT_MS,
        maxRetries: AI_MAX_RETRIES,
        ...(settings.fetch ? { fetch: settings.fetch } : {})
    });
    const messages: OpenAI.ChatCompletionMessageParam[] = [];
    if (request.system) {
        messages.push({ role: 'system', content: request.system });
    }

    messages.push({ role: 'user', content: request.prompt });
    let completion: OpenAI.ChatCompletion;
    try {
        completion = await client.chat.completions.create(
            {
                model: request.model ?? settings.model ?? DEFAULT_MODEL,
                messages,
                response_format: { type: 'json_schema', json_schema: { name: 'output', strict: true, schema: request.schema } }
            },
            { signal }
        );
    } catch (err) {
        throw describe(err, client.baseURL);
    }

    const choice = completion.choices?.[0];
    if (!choice) {
        throw new Error('the language-model reply had no choices');
    }

    if (choice.message.refusal) {
        throw new Error(`the language model refused: ${snippet(choice.message.refusal)}`);
    }

    if (choice.finish_reason === 'length') {
        throw new Error('the language-model reply was cut off at its token limit');
    }

    const content = choice.message.content;
    if (!content) {
        throw new Error('the language-model reply was empty');
    }

    try {
        return toStorableValue(JSON.parse(content));
    } catch {
        throw new Error(`the language-model reply is not JSON: ${snippet(content)}`);
    }
};
