import type * as Hapi from '@hapi/hapi';
import Jwt from '@hapi/jwt';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const TOKEN_AUDIENCE = 'flowctl:api';
export const TOKEN_ISSUER = 'flowctl';

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
    server.auth.default('jwt');
};

export const issueAccessToken = (jwtSecret: string, accountId: string): string =>
    Jwt.token.generate(
        { sub: accountId, typ: 'access', aud: TOKEN_AUDIENCE, iss: TOKEN_ISSUER },
        { key: jwtSecret, algorithm: 'HS256' },
        { ttlSec: ACCESS_TOKEN_TTL_SECONDS }
    );

export const accountIdOf = (request: Hapi.Request): string => request.auth.credentials.user!.accountId;
