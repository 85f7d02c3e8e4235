// Which statuses and headers a route can answer with, derived from its options, so the document
// lists every one (the SDK's types are generated from it). Server-wide behaviour lives here once:
// validation (400), the access token (401), path ids (404), bodies (408, 413, 415), rate limits
// (429), an unavailable store (503). A route adds its own with `plugins.openapi.errors`.

export const ERROR_REF = { $ref: '#/components/schemas/Error' };

const ERROR_TEXT: Record<number, string> = {
    400: 'Invalid input: `message` says what to fix, `details` lists each field',
    401: 'Missing, invalid or expired access token',
    403: 'Not allowed',
    404: 'No such resource for this account',
    408: 'The request body stopped arriving',
    409: 'Conflicts with the current state: `message` says which',
    412: 'Changed since the If-Match ETag was read: nothing was written; `message` says which revision is current',
    413: 'The request body is too large',
    415: 'Unsupported Content-Type',
    429: 'Rate limited: retry after the `Retry-After` header’s seconds',
    503: 'Unavailable for a moment (the store or the mail server): retry later'
};

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });
const stringHeader = (description: string) => ({ description, schema: { type: 'string' } });

export const HEADERS = {
    requestId: stringHeader('Id of this request in the server logs (the client’s own X-Request-Id when it sent one)'),
    link: stringHeader('`<…>; rel="next"`: the address of the next page, absent on the last one'),
    retryAfter: integerHeader('Seconds to wait before retrying'),
    location: stringHeader('Where to go next'),
    etag: stringHeader('Version of this answer: send it back as If-None-Match to be answered 304 while nothing changed'),
    rateLimit: {
        'RateLimit-Limit': integerHeader('Requests allowed in the window'),
        'RateLimit-Remaining': integerHeader('Requests left in the window'),
        'RateLimit-Reset': integerHeader('Seconds until the window resets')
    }
};

export interface ResponseTraits {
    secured: boolean;
    rateLimited: boolean;
    /** The path has parameters: an id that may not exist (or be another account's). */
    hasPathParams: boolean;
    /** The route reads a request body. */
    takesBody: boolean;
    /** The route restricts the body's Content-Type. */
    restrictsType: boolean;
    /** The route pages with a Link header. */
    paged: boolean;
    /** The route answers 304 to If-None-Match. */
    conditional: boolean;
    extraErrors: number[];
    /** Types of the route's answers besides JSON (its error pages too, e.g. an HTML page for a browser). */
    produces?: string[];
}

/** Headers every response of the route may carry. */
export const commonHeaders = (traits: ResponseTraits): Record<string, unknown> => ({
    'x-request-id': HEADERS.requestId,
    ...(traits.rateLimited ? HEADERS.rateLimit : {})
});

/** The error responses of a route, keyed by status. */
export const errorResponses = (traits: ResponseTraits): Record<string, unknown> => {
    const codes = new Set<number>([400, 503, ...traits.extraErrors]);
    if (traits.secured) {
        codes.add(401);
    }

    if (traits.hasPathParams) {
        codes.add(404);
    }

    if (traits.takesBody) {
        codes.add(408);
        codes.add(413);
    }

    if (traits.restrictsType) {
        codes.add(415);
    }

    if (traits.rateLimited) {
        codes.add(429);
    }

    const headers = commonHeaders(traits);
    const responses: Record<string, unknown> = {};
    for (const code of [...codes].sort((a, b) => a - b)) {
        responses[String(code)] = {
            description: ERROR_TEXT[code] ?? 'Error',
            headers: code === 429 || code === 503 ? { ...headers, 'Retry-After': HEADERS.retryAfter } : headers,
            content: {
                'application/json': { schema: ERROR_REF },
                ...Object.fromEntries((traits.produces ?? []).map((type) => [type, { schema: { type: 'string' } }]))
            }
        };
    }

    return responses;
};

/** A success response: JSON with `schema`, another type, a redirect, or no content (204). */
export const successResponse = (code: number, traits: ResponseTraits, body: { schema?: Record<string, unknown>; produces?: string[] }): Record<string, unknown> => {
    const headers: Record<string, unknown> = {
        ...commonHeaders(traits),
        ...(traits.paged && code === 200 ? { Link: HEADERS.link } : {}),
        ...(traits.conditional && code === 200 ? { ETag: HEADERS.etag } : {})
    };
    if (code === 304) {
        return { description: 'Not modified: nothing changed since the ETag sent as If-None-Match', headers: { ...headers, ETag: HEADERS.etag } };
    }

    if (code >= 300 && code < 400) {
        return { description: 'Redirect', headers: { ...headers, Location: { ...HEADERS.location, required: true } } };
    }

    if (code === 204) {
        return { description: 'Done; no content', headers };
    }

    const types = body.produces ?? ['application/json'];
    const content = Object.fromEntries(types.map((type) => [type, { schema: type === 'application/json' ? (body.schema ?? {}) : { type: 'string' } }]));
    return { description: 'Success', headers, content };
};
