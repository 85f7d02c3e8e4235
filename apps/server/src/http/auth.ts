import type * as Hapi from '@hapi/hapi';
import Jwt from '@hapi/jwt';

import { ACCESS_TOKEN_TTL_SECONDS, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../services/tokens.js';

declare module '@hapi/hapi' {
    interface UserCredentials {
        accountId: string;
    }
}

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
            timeSkewSec: 5
        },
        validate: (artifacts: { decoded: { payload: { sub?: unknown; typ?: unknown } } }) => {
            const { sub, typ } = artifacts.decoded.payload;
            if (typeof sub !== 'string' || typ !== 'access') {
                return { isValid: false };
            }

            return { isValid: true, credentials: { user: { accountId: sub } } };
        }
    });
};

export const accountIdOf = (request: Hapi.Request): string => request.auth.credentials.user!.accountId;
