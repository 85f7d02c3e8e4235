// Every error the client throws is a FlowctlError, so `catch (err) { if (err instanceof FlowctlError) … }`
// covers them all; subclasses say which kind, for `instanceof` checks without reading status codes.

/** One field problem of a 400: `path` is the field's path (e.g. `graph.nodes.2.data.expr`). */
export interface ErrorDetail {
    path?: string;
    message: string;
    [key: string]: unknown;
}

export interface FlowctlErrorInit {
    status?: number;
    error?: string;
    details?: ErrorDetail[] | unknown;
    requestId?: string;
    headers?: Record<string, string>;
    cause?: unknown;
}

/** Base class of every error this SDK throws. HTTP errors carry the server's answer. */
export class FlowctlError extends Error {
    /** HTTP status, when the server answered. */
    readonly status: number | undefined;
    /** The server's short error name, e.g. `Not Found`. */
    readonly error: string | undefined;
    /** Field-level problems of a 400 (or whatever the server sent as `details`). */
    readonly details: unknown;
    /** The server's `x-request-id`: quote it when reporting a problem. */
    readonly requestId: string | undefined;
    /** Response headers, lower-case names. */
    readonly headers: Record<string, string>;

    constructor(message: string, init: FlowctlErrorInit = {}) {
        super(message, init.cause === undefined ? undefined : { cause: init.cause });
        this.name = new.target.name;
        this.status = init.status;
        this.error = init.error;
        this.details = init.details;
        this.requestId = init.requestId;
        this.headers = init.headers ?? {};
    }
}

/** 400: the request was invalid; `message` says what to fix and `details` lists each field. */
export class BadRequestError extends FlowctlError {}
/** 401: missing, invalid or expired credentials (after a refresh was tried, when possible). */
export class AuthenticationError extends FlowctlError {}
/** 403: signed in but not allowed (e.g. an unverified account logging in). */
export class PermissionDeniedError extends FlowctlError {}
/** 404: no such resource, or it belongs to another account. */
export class NotFoundError extends FlowctlError {}
/** 409: the request conflicts with the resource's state (e.g. cancelling a finished run). */
export class ConflictError extends FlowctlError {}
/** 413: the body is larger than the server accepts. */
export class PayloadTooLargeError extends FlowctlError {}

/** 412: the workflow changed since the revision named in `ifMatch`; nothing was written. */
export class PreconditionFailedError extends FlowctlError {
    /** The workflow's current revision, as the server said. */
    readonly revision: number | undefined;

    constructor(message: string, init: FlowctlErrorInit & { revision?: number }) {
        super(message, init);
        this.revision = init.revision;
    }
}
/** 415: the body's content type is not accepted. */
export class UnsupportedMediaTypeError extends FlowctlError {}
/** 422: e.g. an `Idempotency-Key` reused with a different request body. */
export class UnprocessableEntityError extends FlowctlError {}

/** 429: rate limited, after the client's own retries. */
export class RateLimitError extends FlowctlError {
    /** Seconds the server asked to wait (`Retry-After`), when it said. */
    readonly retryAfter: number | undefined;

    constructor(message: string, init: FlowctlErrorInit & { retryAfter?: number } = {}) {
        super(message, init);
        this.retryAfter = init.retryAfter;
    }
}

/** 5xx: the server failed, after the client's own retries where the request allowed them. */
export class InternalServerError extends FlowctlError {}

/** The server could not be reached, or the connection broke before an answer. */
export class ConnectionError extends FlowctlError {}

/** No answer within `timeoutMs`. */
export class TimeoutError extends ConnectionError {}

/** The caller's `AbortSignal` fired. `cause` is the signal's reason. */
export class AbortError extends FlowctlError {}

/**
 * The server pointed the client at an address outside its base URL (another scheme, host or port, or a
 * path outside the base path), e.g. a next-page `Link`. The client refuses it: it only ever sends
 * requests, and so its sign-in, to the server it was made for. `url` is the address it refused.
 */
export class ForeignAddressError extends FlowctlError {
    readonly url: string;

    constructor(message: string, url: string) {
        super(message);
        this.url = url;
    }
}

/** `runs.wait()` gave up after its `timeoutMs`; the run goes on. `run` is the last state seen. */
export class WaitTimeoutError extends FlowctlError {
    readonly run: unknown;

    constructor(message: string, run: unknown) {
        super(message);
        this.run = run;
    }
}

const BY_STATUS: Record<number, new (message: string, init: FlowctlErrorInit) => FlowctlError> = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    415: UnsupportedMediaTypeError,
    422: UnprocessableEntityError
};

/** Parses `Retry-After` (seconds or an HTTP date) into seconds. */
export const parseRetryAfter = (value: string | undefined): number | undefined => {
    if (!value) {
        return undefined;
    }

    const seconds = Number(value);
    if (Number.isFinite(seconds)) {
        return Math.max(0, seconds);
    }

    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
};

/** The typed error for an HTTP error answer; `body` is the parsed JSON body, if any. */
export const errorFromResponse = (status: number, headers: Record<string, string>, body: unknown): FlowctlError => {
    const payload = (body && typeof body === 'object' ? body : {}) as { error?: unknown; message?: unknown; details?: unknown; revision?: unknown };
    const error = typeof payload.error === 'string' ? payload.error : undefined;
    const message = typeof payload.message === 'string' && payload.message ? payload.message : `${status} ${error ?? 'error'}`;
    const init: FlowctlErrorInit = { status, error, details: payload.details, requestId: headers['x-request-id'], headers };
    if (status === 429) {
        return new RateLimitError(message, { ...init, retryAfter: parseRetryAfter(headers['retry-after']) });
    }

    if (status >= 500) {
        return new InternalServerError(message, init);
    }

    if (status === 412) {
        return new PreconditionFailedError(message, { ...init, ...(typeof payload.revision === 'number' ? { revision: payload.revision } : {}) });
    }

    const ErrorClass = BY_STATUS[status] ?? FlowctlError;
    return new ErrorClass(message, init);
};
