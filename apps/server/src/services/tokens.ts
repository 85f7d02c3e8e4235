import Jwt from '@hapi/jwt';

// Access tokens are issued here, where the account rules live; http/auth.ts only checks them.
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const TOKEN_AUDIENCE = 'flowctl:api';
export const TOKEN_ISSUER = 'flowctl';

export const issueAccessToken = (jwtSecret: string, accountId: string): string =>
    Jwt.token.generate(
        { sub: accountId, typ: 'access', aud: TOKEN_AUDIENCE, iss: TOKEN_ISSUER },
        { key: jwtSecret, algorithm: 'HS256' },
        { ttlSec: ACCESS_TOKEN_TTL_SECONDS }
    );
