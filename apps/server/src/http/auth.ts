import type * as Hapi from '@hapi/hapi';
import Jwt from '@hapi/jwt';

import { ACCESS_TOKEN_TTL_SECONDS, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../services/tokens.js';

declare module '@hapi/hapi' {
    interface UserCredentials {
        accountId: string;
    }
}

const TIME_SKEW_SEC = 5;

interface AccessClaims {
    sub?: unknown;
    typ?: unknown;
    iat?: unknown;
    exp?: unknown;
}

/**
 * @hapi/jwt checks `exp` and `iat` only when they are present, and `iat` only for being too old: a
 * token without `exp` would never expire, and one dated in the future would outlive its 15 minutes.
 * Every token this server issues has both, so a token lacking either was not made here.
 */
const acceptableClaims = ({ sub, typ, iat, exp }: AccessClaims, nowSec: number): boolean =>
    typeof sub === 'string' && typ === 'access' && typeof exp === 'number' && typeof iat === 'number' && iat <= nowSec + TIME_SKEW_SEC;

/** Bearer JWTs (HS256 only: `alg: none` and other algorithms are refused), checked without a database hit. */
export const registerAuth = async (server: Hapi.Server, jwtSecret: string): Promise<void> => {
    await server.register(Jwt);
    server.auth.strategy('jwt', 'jwt', {
        keys: { key: jwtSecret, algorithms: ['HS256'] },
        verify: {
            aud: TOKEN_AUDIENCE,
            iss: TOKEN_ISSUER,
            sub: false,
            nbf: true,
            exp: true,
            maxAgeSec: ACCESS_TOKEN_TTL_SECONDS,
            timeSkewSec: TIME_SKEW_SEC
        },
        validate: (artifacts: { decoded: { payload: AccessClaims } }) => {
            const claims = artifacts.decoded.payload;
            if (!acceptableClaims(claims, Math.floor(Date.now() / 1000))) {
                return { isValid: false };
            }

            return { isValid: true, credentials: { user: { accountId: claims.sub as string } } };
        }
    });
};

export const accountIdOf = (request: Hapi.Request): string => request.auth.credentials.user!.accountId;
