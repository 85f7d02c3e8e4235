import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';
import Jwt from '@hapi/jwt';

import type { AccountsService } from '../services/accounts.js';
import { SESSION_ENDED } from '../services/sessions.js';
import { ACCESS_TOKEN_TTL_SECONDS, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../services/tokens.js';
import { REMEMBERED_STRATEGY, RememberedTokens } from './remembered-tokens.js';

declare module '@hapi/hapi' {
    interface UserCredentials {
        accountId: string;
        /** The session an access token belongs to; absent for a personal API token. */
        sessionId?: string;
        /** When that session last proved the password (or a code), once checked live. */
        signedInAt?: Date;
    }

    interface RouteOptionsApp {
        /**
         * The route reads when the session signed in (signedInAtOf): it is read from the store, not
         * from the live sessions the process remembers (services/session-cache.ts).
         */
        freshSignIn?: boolean;
    }
}

const TIME_SKEW_SEC = 5;
export const JWT_STRATEGY = 'jwt';
/** The default strategies for an access token, cheapest first (remembered-tokens.ts). */
export const ACCESS_TOKEN_STRATEGIES = [REMEMBERED_STRATEGY, JWT_STRATEGY];

interface AccessClaims {
    sub?: unknown;
    sid?: unknown;
    typ?: unknown;
    iat?: unknown;
    exp?: unknown;
}

/**
 * @hapi/jwt checks `exp` and `iat` only when they are present, and `iat` only for being too old: a
 * token without `exp` would never expire, and one dated in the future would outlive its 15 minutes.
 * Every token this server issues has both, and names its session, so a token lacking any was not
 * made here (or was made before sessions could end: its client refreshes it).
 */
const acceptableClaims = ({ sub, sid, typ, iat, exp }: AccessClaims, nowSec: number): boolean =>
    typeof sub === 'string' &&
    typeof sid === 'string' &&
    typ === 'access' &&
    typeof exp === 'number' &&
    typeof iat === 'number' &&
    iat <= nowSec + TIME_SKEW_SEC;

/**
 * Bearer JWTs (HS256 only: `alg: none` and other algorithms are refused). The signature is checked
 * without a database hit; then the session the token names must still be live: one indexed lookup
 * per request on PostgreSQL, so a session ended in any API process refuses its access tokens at
 * once. On the embedded store, which one process owns, live sessions are remembered and forgotten
 * whenever one ends (services/session-cache.ts).
 */
export const registerAuth = async (server: Hapi.Server, jwtSecret: string, accounts: Pick<AccountsService, 'sessionSignedInAt'>): Promise<void> => {
    const verify = {
        aud: TOKEN_AUDIENCE,
        iss: TOKEN_ISSUER,
        sub: false,
        nbf: true,
        exp: true,
        maxAgeSec: ACCESS_TOKEN_TTL_SECONDS,
        timeSkewSec: TIME_SKEW_SEC
    } as const;
    await server.register(Jwt);
    server.auth.strategy(JWT_STRATEGY, 'jwt', {
        keys: { key: jwtSecret, algorithms: ['HS256'] },
        verify,
        validate: (artifacts: { decoded: { payload: AccessClaims } }) => {
            const claims = artifacts.decoded.payload;
            if (!acceptableClaims(claims, Math.floor(Date.now() / 1000))) {
                return { isValid: false };
            }

            return { isValid: true, credentials: { user: { accountId: claims.sub as string, sessionId: claims.sid as string } } };
        }
    });
    const remembered = new RememberedTokens(verify, acceptableClaims);
    remembered.register(server);

    // Here rather than in `validate`: a store failure there would be answered as a 401.
    server.ext('onCredentials', async (request, h) => {
        const user = request.auth.credentials?.user;
        const strategy = request.auth.strategy;
        if ((strategy !== JWT_STRATEGY && strategy !== REMEMBERED_STRATEGY) || !user?.sessionId) {
            return h.continue;
        }

        const signedInAt = await accounts.sessionSignedInAt(user.sessionId, user.accountId, request.route.settings.app?.freshSignIn === true);
        if (!signedInAt) {
            throw Boom.unauthorized(SESSION_ENDED, 'Bearer');
        }

        user.signedInAt = signedInAt;
        if (strategy === JWT_STRATEGY) {
            remembered.remember(request);
        }

        return h.continue;
    });
};

export const accountIdOf = (request: Hapi.Request): string => request.auth.credentials.user!.accountId;

/** The request's session; null for a personal API token, which has none. */
export const sessionIdOf = (request: Hapi.Request): string | null => request.auth.credentials.user?.sessionId ?? null;

/** When the request's session signed in; null for a personal API token, which has no session. */
export const signedInAtOf = (request: Hapi.Request): Date | null => request.auth.credentials.user?.signedInAt ?? null;
