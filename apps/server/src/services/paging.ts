import Boom from '@hapi/boom';

import { decodeCursor, encodeCursor, type Page, type PageRequest } from '../store/keyset.js';

export type ListQuery = {
    limit: number;
    cursor?: string;
};

export interface ListPage<T> {
    items: T[];
    next: string | null;
}

/** The keyset a list cursor names, or a 400 saying where cursors come from. */
export const pageRequest = (query: ListQuery): PageRequest => {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    if (query.cursor !== undefined && !after) {
        throw Boom.badRequest(`Invalid cursor '${query.cursor.slice(0, 40)}': pass the cursor from the Link header of the previous page`);
    }

    return { limit: query.limit, after };
};

/** A page as services answer it: the cursor of the next page opaque to clients. */
export const pageOut = <T>(page: Page<T>): ListPage<T> => ({ items: page.items, next: page.next ? encodeCursor(page.next) : null });
