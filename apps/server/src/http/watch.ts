import Joi from 'joi';

export const MAX_WAIT_SECONDS = 30;

/** `validate.headers` of a watchable GET: declares the conditional and long-poll headers, lets others through. */
export const watchHeaders = Joi.object({
    'if-none-match': Joi.string().max(1000).description('The ETag of the last answer: 304 when the resource is unchanged'),
    prefer: Joi.string()
        .max(1000)
        .description(`wait=N (RFC 7240; seconds, at most ${MAX_WAIT_SECONDS}): with a matching If-None-Match, hold the request until the resource changes or N seconds pass`)
}).unknown();

/** The seconds asked for by `Prefer: wait=N`, capped; null when the header does not ask. */
export const preferredWait = (prefer: string | undefined): number | null => {
    const seconds = /(?:^|[,;])\s*wait\s*=\s*"?(\d{1,9})"?\s*(?:[,;]|$)/i.exec(prefer ?? '')?.[1];
    return seconds === undefined ? null : Math.min(Number(seconds), MAX_WAIT_SECONDS);
};

/** The opaque part of the first entity tag of an If-None-Match header (weak or strong), or null. */
export const firstEntityTag = (ifNoneMatch: string | undefined): string | null => /^\s*(?:W\/)?"([^"]*)"/.exec(ifNoneMatch ?? '')?.[1] ?? null;

/** The opaque parts of every entity tag in an If-None-Match header, weak or strong; `*` as itself. */
const entityTags = (ifNoneMatch: string): string[] => {
    if (ifNoneMatch.trim() === '*') {
        return ['*'];
    }

    return [...ifNoneMatch.matchAll(/(?:^|,)\s*(?:W\/)?"([^"]*)"\s*(?=,|$)/g)].map((match) => match[1]!);
};

/**
 * Whether If-None-Match fails for a representation tagged `etag` (so the answer is 304): RFC 9110
 * §13.1.2 compares weakly (`W/"x"` matches `"x"`), and `*` matches any current representation.
 */
export const noneMatchFails = (ifNoneMatch: string | undefined, etag: string): boolean => {
    if (!ifNoneMatch) {
        return false;
    }

    const opaque = /^(?:W\/)?"([^"]*)"$/.exec(etag)?.[1];
    return opaque !== undefined && entityTags(ifNoneMatch).some((tag) => tag === '*' || tag === opaque);
};
