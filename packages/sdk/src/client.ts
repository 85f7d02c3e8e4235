import { errorFromResponse, ForeignAddressError } from './errors.js';
import { nextLinkOf, PagedList } from './pagination.js';
import { Account } from './resources/account.js';
import { Auth } from './resources/auth.js';
import { Integrations } from './resources/integrations.js';
import { Runs } from './resources/runs.js';
import { Suppressions } from './resources/suppressions.js';
import { Uploads } from './resources/uploads.js';
import { Workflows } from './resources/workflows.js';
import { type OnTokens, Session } from './session.js';
import { type FetchLike, type HttpMethod, type RequestBody, Transport, type WireResponse } from './transport.js';
import type { TokenPair } from './types.js';

export interface ClientOptions {
    /** The server's address, e.g. `http://127.0.0.1:3000`. */
    baseUrl: string;
    /** An access token (JWT) from log-in or verification. */
    accessToken?: string;
    /** The refresh token that goes with `accessToken`: the client renews an expired access token with it. */
    refreshToken?: string;
    /** A personal API token (`flc_…`) for programs and CI. Sent as is; never refreshed. */
    apiToken?: string;
    /** Called with every new token pair (log-in, verification, refresh), to persist it. */
    onTokens?: OnTokens;
    /** Per-request limit for the answer to start, and between body chunks. Default 60 000 ms. */
    timeoutMs?: number;
    /** Retries of a failed idempotent request (429, 502, 503, 504, broken connection). Default 2. */
    maxRetries?: number;
    /**
     * A fetch to send requests through instead of undici's `request` (e.g. for instrumentation). It is
     * passed the client's dispatcher as `init.dispatcher`: forward it to keep keep-alive and retries.
     */
    fetch?: FetchLike;
}

/** Options every method accepts as its last argument. */
export interface RequestOptions {
    /** Abort the request; the method then throws an AbortError. */
    signal?: AbortSignal;
    /** Overrides the client's `timeoutMs` for this request. */
    timeoutMs?: number;
    /** Extra request headers. */
    headers?: Record<string, string>;
}

/** @internal What a resource asks the client to send. */
export interface ApiRequest extends RequestOptions {
    method: HttpMethod;
    /** A path under the base URL, or a server's `Link` target: either must stay under the base URL. */
    path: string;
    query?: Record<string, string | number | boolean | undefined> | undefined;
    json?: unknown;
    /** A body made afresh for each attempt (so a refused request can be replayed), with its content type. */
    body?: () => RequestBody;
    /** False: the body cannot be made twice, so no replay after a refresh. */
    replayable?: boolean;
    /** False for the sign-in routes, which take no token. */
    auth?: boolean;
    /** 304 is an answer, not an error (conditional requests). */
    allowNotModified?: boolean;
}

export type ApiResponse = WireResponse;

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;

/**
 * The flowctl API client. One per server and account: it keeps one keep-alive connection pool.
 *
 * @example
 * const client = new Flowctl({ baseUrl: 'http://127.0.0.1:3000', apiToken: process.env.FLOWCTL_TOKEN });
 * const { runId } = await client.runs.enqueue(workflowId);
 * const run = await client.runs.wait(runId, { onUpdate: (r) => console.log(r.status) });
 */
export class Flowctl {
    readonly baseUrl: URL;
    readonly timeoutMs: number;
    readonly maxRetries: number;

    /** Sign-up, log-in and tokens. */
    readonly auth: Auth;
    /** Account settings and personal API tokens. */
    readonly account: Account;
    /** CSV uploads. */
    readonly uploads: Uploads;
    /** Workflows (graphs). */
    readonly workflows: Workflows;
    /** Runs: enqueue, watch, cancel. */
    readonly runs: Runs;
    /** Linked accounts (Google). */
    readonly integrations: Integrations;
    /** The suppression list: addresses no OUTPUT node mails. */
    readonly suppressions: Suppressions;

    /** @internal */
    readonly session: Session;
    readonly #transport: Transport;

    constructor(options: ClientOptions) {
        if (!options?.baseUrl) {
            throw new TypeError('new Flowctl({ baseUrl }): baseUrl is required, e.g. http://127.0.0.1:3000');
        }

        // An empty token (FLOWCTL_TOKEN=$(a command that failed)) would go out as a malformed header, and
        // the server's answer (bad authentication header format) would not say why.
        if (options.apiToken !== undefined && options.apiToken.trim() === '') {
            throw new TypeError(
                'new Flowctl({ apiToken }): apiToken is empty (was the variable it came from, e.g. FLOWCTL_TOKEN, set?): create a token with `flowctl tokens create`, or leave apiToken out'
            );
        }

        this.baseUrl = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
        this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
        this.#transport = new Transport({ maxRetries: this.maxRetries, fetch: options.fetch });
        this.session = new Session(options, (refreshToken) => this.auth.refresh(refreshToken));

        this.auth = new Auth(this);
        this.account = new Account(this);
        this.uploads = new Uploads(this);
        this.workflows = new Workflows(this);
        this.runs = new Runs(this);
        this.integrations = new Integrations(this);
        this.suppressions = new Suppressions(this);
    }

    /** The current token pair, e.g. after a refresh (undefined with an API token or before log-in). */
    get tokens(): TokenPair | undefined {
        const { accessToken, refreshToken } = this.session;
        return accessToken && refreshToken ? { accessToken, refreshToken, expiresIn: 0 } : undefined;
    }

    /** Closes the connection pool. Requests in flight finish first. */
    close(): Promise<void> {
        return this.#transport.close();
    }

    /**
     * @internal Sends one request with the client's credentials: renews an expired access token first,
     * and once more on a 401 when the body can be sent again. Throws the typed error of an error answer.
     */
    async request(req: ApiRequest): Promise<ApiResponse> {
        const useAuth = req.auth !== false;
        let token = useAuth ? await this.session.bearer() : undefined;
        let res = await this.#send(req, token);
        if (res.status === 401 && useAuth && token !== undefined && this.session.canRefresh && req.replayable !== false) {
            token = await this.session.renew(token);
            res = await this.#send(req, token);
        }

        // Redirects are never followed (the transport does not): one to another host is refused the same
        // way as a next-page link there; any other is an error too, as a 3xx has no answer to return.
        if (res.status >= 300 && res.status < 400 && res.status !== 304) {
            const location = res.headers.location ?? '';
            const outside = this.#outside(location);
            const what = `The server redirected ${req.method} ${req.path.split('?')[0]}`;
            throw outside
                ? new ForeignAddressError(`${what} to ${outside}: ${NOT_FOLLOWED}`, location)
                : errorFromResponse(res.status, res.headers, { message: `${what} (${res.status}): the client does not follow redirects; check its base URL ${this.baseUrl.href}` });
        }

        if (res.status >= 400 || (res.status === 304 && !req.allowNotModified)) {
            throw errorFromResponse(res.status, res.headers, res.body);
        }

        return res;
    }

    /** @internal A list that follows `Link: <…>; rel="next"` from page to page. */
    list<T>(req: ApiRequest, map: (body: unknown) => T[] = (body) => body as T[]): PagedList<T> {
        return new PagedList<T>(async (next) => {
            const res = await this.request(next === null ? req : { ...req, path: next, query: undefined });
            const link = nextLinkOf(res.headers.link);
            const outside = link === null ? undefined : this.#outside(link);
            if (outside) {
                throw new ForeignAddressError(`The server's next-page link pointed at ${outside}: ${NOT_FOLLOWED}`, link!);
            }

            return { items: map(res.body), next: link };
        });
    }

    /**
     * The address of `path`: a path under the base URL (a leading `/` is the base URL's, not the host's),
     * or a server-given link. Anything that resolves outside the base URL is refused: the client only
     * ever sends requests (and so its sign-in) to the server it was made for.
     */
    #resolve(path: string): URL | undefined {
        try {
            const url = new URL(path.replace(/^\//, ''), this.baseUrl);
            return url.origin === this.baseUrl.origin && url.pathname.startsWith(this.baseUrl.pathname) ? url : undefined;
        } catch {
            return undefined;
        }
    }

    /** Where `path` points, when outside the base URL (the end of a sentence); undefined when under it. */
    #outside(path: string): string | undefined {
        if (this.#resolve(path)) {
            return undefined;
        }

        let url: URL;
        try {
            url = new URL(path.replace(/^\//, ''), this.baseUrl);
        } catch {
            return 'an invalid address';
        }

        // The origin of a parsed URL is safe to show; the rest of a hostile link is not.
        return url.origin === this.baseUrl.origin ? `a path outside the API's address ${this.baseUrl.href}` : `another host (${url.origin}) instead of ${this.baseUrl.origin}`;
    }

    #send(req: ApiRequest, token: string | undefined): Promise<WireResponse> {
        const url = this.#resolve(req.path);
        if (!url) {
            throw new ForeignAddressError(`${req.method} to ${this.#outside(req.path)}: not sent`, req.path);
        }

        for (const [name, value] of Object.entries(req.query ?? {})) {
            if (value !== undefined) {
                url.searchParams.set(name, String(value));
            }
        }

        const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
        let body: RequestBody | undefined;
        if (req.json !== undefined) {
            headers['content-type'] = 'application/json';
            body = JSON.stringify(req.json);
        } else if (req.body) {
            body = req.body();
        }

        if (token !== undefined) {
            headers.authorization = `Bearer ${token}`;
        }

        for (const [name, value] of Object.entries(req.headers ?? {})) {
            headers[name.toLowerCase()] = value;
        }

        return this.#transport.send({ method: req.method, url, headers, body, signal: req.signal, timeoutMs: req.timeoutMs ?? this.timeoutMs });
    }
}

const NOT_FOLLOWED = 'not followed, so neither the request nor the sign-in goes there';

const USER_AGENT = `flowctl-sdk node/${process.versions.node}`;
