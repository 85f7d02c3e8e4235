import type * as Hapi from '@hapi/hapi';
import Jwt from '@hapi/jwt';

import { notMine } from './api-token-auth.js';

/**
 * Access tokens whose signature this process has checked, so that the next request with the same
 * `Authorization` header skips decoding it and computing its HMAC: measured, 6.5 % of an
 * authenticated GET's CPU on the embedded store. A signature checked once stays good (the key is
 * the process's), so the payload alone is checked again, as the full check does it (`exp`, `nbf`,
 * the maximum age, audience and issuer; then our own claims check): what time changes is seen.
 *
 * The remembered strategy goes first: anything it does not know, or that no longer passes, is
 * "missing" to it, and the full JWT strategy then answers (with its own error, as before). A header
 * is remembered only once that full strategy has accepted it.
 */
export const REMEMBERED_STRATEGY = 'jwt-remembered';

/** Beyond this many headers the memory starts over (each entry is a few hundred bytes). */
const MAX_REMEMBERED = 10_000;

/**
 * The full strategy's `verify` options, which @hapi/jwt's payload check takes as they are (its types
 * say `nbf` is a number there; the check reads only whether it is `false`).
 */
export type PayloadChecks = Record<string, unknown>;
const verifyPayload = Jwt.token.verifyPayload as unknown as (artifacts: Remembered['artifacts'], checks: PayloadChecks) => void;

interface Remembered {
    artifacts: { decoded: { payload: Record<string, unknown> } };
    user: { accountId: string; sessionId: string };
}

export class RememberedTokens {
    private readonly headers = new Map<string, Remembered>();

    constructor(
        private readonly checks: PayloadChecks,
        /** The claims check the full strategy's `validate` makes (some of it depends on the time). */
        private readonly acceptable: (payload: Record<string, unknown>, nowSec: number) => boolean
    ) {}

    /** After the full strategy accepted the request's header. */
    remember(request: Hapi.Request): void {
        const header = request.headers.authorization;
        const artifacts = request.auth.artifacts as Remembered['artifacts'] | undefined;
        const user = request.auth.credentials?.user;
        if (typeof header !== 'string' || !artifacts?.decoded?.payload || !user?.sessionId || this.headers.has(header)) {
            return;
        }

        if (this.headers.size >= MAX_REMEMBERED) {
            this.headers.clear();
        }

        this.headers.set(header, { artifacts, user: { accountId: user.accountId, sessionId: user.sessionId } });
    }

    /** The credentials of a remembered header that still passes the time checks; else null (and forgotten). */
    recall(header: unknown): Remembered | null {
        if (typeof header !== 'string') {
            return null;
        }

        const remembered = this.headers.get(header);
        if (!remembered) {
            return null;
        }

        try {
            verifyPayload(remembered.artifacts, this.checks);
            if (this.acceptable(remembered.artifacts.decoded.payload, Math.floor(Date.now() / 1000))) {
                return remembered;
            }
        } catch {
            // expired, too old or not yet active: the full strategy says which
        }

        this.headers.delete(header);
        return null;
    }

    register(server: Hapi.Server): void {
        server.auth.scheme(REMEMBERED_STRATEGY, () => ({
            authenticate: (request, h) => {
                const remembered = this.recall(request.headers.authorization);
                if (!remembered) {
                    return h.unauthenticated(notMine());
                }

                // A copy: onCredentials adds signedInAt to the request's own user.
                return h.authenticated({ credentials: { user: { ...remembered.user } }, artifacts: remembered.artifacts });
            }
        }));
        server.auth.strategy(REMEMBERED_STRATEGY, REMEMBERED_STRATEGY);
    }
}
