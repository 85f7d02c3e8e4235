import type * as Hapi from '@hapi/hapi';
import Joi from 'joi';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 500;

/** `limit` and `cursor`, as every keyset-paged list takes them. */
export const pageQuery = {
    limit: Joi.number().integer().min(1).max(MAX_PAGE).default(DEFAULT_PAGE),
    cursor: Joi.string().max(120).description('From the Link header of the previous page')
};

export const PAGE_NOTES = `${DEFAULT_PAGE} per page by default, at most ${MAX_PAGE}. The next page's address is in the Link header (rel="next").`;

/** Link header of the next page, relative to this server. */
export const nextLink = (path: string, query: Record<string, string | number>): string => {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    return `<${path}?${search}>; rel="next"`;
};

/** The page as the body, and its next page in the Link header when there is one. */
export const pageResponse = (h: Hapi.ResponseToolkit, request: Hapi.Request, page: { items: unknown[]; next: string | null }): Hapi.ResponseObject => {
    const response = h.response(page.items);
    if (page.next) {
        // The next page keeps the list's filters (e.g. `sha256`), with its own cursor.
        const filters = Object.entries(request.query as Record<string, unknown>).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number');
        response.header('link', nextLink(request.path, { ...Object.fromEntries(filters), cursor: page.next }));
    }

    return response;
};
