import type * as Hapi from '@hapi/hapi';
import Boom from '@hapi/boom';

import type { HookOwner, HooksService } from '../services/hooks.js';

export const HOOK_STRATEGY = 'hook';

/** A hook id as made (32 random bytes, base64url): anything else is unknown without a lookup. */
const HOOK_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * The hook id in the path is the credential (POST /api/hooks/{hookId}): looked up by its hash before
 * the body is read, so an unknown hook is a 404 and a paused workflow a 409 whatever was sent.
 */
export const registerHookAuth = (server: Hapi.Server, hooks: HooksService): void => {
    server.auth.scheme(HOOK_STRATEGY, () => ({
        async authenticate(request, h) {
            const hookId = (request.params as { hookId?: unknown }).hookId;
            try {
                if (typeof hookId !== 'string' || !HOOK_ID.test(hookId)) {
                    throw Boom.notFound('Unknown hook: its workflow was deleted, its hook was rotated or removed, or the URL is mistyped');
                }

                const owner = await hooks.identify(hookId);
                return h.authenticated({ credentials: { user: { accountId: owner.accountId }, app: { hook: owner } } as Hapi.AuthCredentials });
            } catch (err) {
                return h.unauthenticated(err as Error);
            }
        }
    }));
    server.auth.strategy(HOOK_STRATEGY, HOOK_STRATEGY);
};

export const hookOwnerOf = (request: Hapi.Request): HookOwner => (request.auth.credentials.app as { hook: HookOwner }).hook;
