import Jwt from '@hapi/jwt';

// Access tokens are issued here, where the account rules live; http/auth.ts only checks them.
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const TOKEN_AUDIENCE = 'flowctl:api';
export const TOKEN_ISSUER = 'flowctl';

/** `sid` names the session (the refresh-token family): the token is refused once that session ends. */
export const issueAccessToken = (jwtSecret: string, accountId: string, sessionId: string): string =>
    Jwt.token.generate(
        { sub: accountId, sid: sessionId, typ: 'access', aud: TOKEN_AUDIENCE, iss: TOKEN_ISSUER },
        { key: jwtSecret, algorithm: 'HS256' },
        { ttlSec: ACCESS_TOKEN_TTL_SECONDS }
    );
