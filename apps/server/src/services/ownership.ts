import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { type Owned, owns } from '../store/ownership.js';

export type { Owned };

// The 404 each resource's own service answers, word for word: another account's id must read
// exactly like an id that does not exist.
const NOT_FOUND: Record<Owned, (id: string) => string> = {
    workflow: (id) => `Workflow '${id}' not found`,
    run: (id) => `Run '${id}' not found`,
    upload: (id) => `Upload '${id}' not found`,
    apiToken: (id) => `API token '${id}' not found`
};

export interface OwnershipService {
    /** 404, as for an unknown id, unless the account has this resource. */
    check(kind: Owned, accountId: string, id: string): Promise<void>;
}

export const createOwnershipService = (ctx: Context): OwnershipService => ({
    async check(kind, accountId, id) {
        if (!(await owns(ctx.db, kind, accountId, id))) {
            throw Boom.notFound(NOT_FOUND[kind](id));
        }
    }
});
