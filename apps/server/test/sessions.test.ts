import Crypto from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { decrypt } from '../src/secrets.js';
import { createAccountsService } from '../src/services/accounts.js';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/services/tokens.js';
import { startTestServer, type TestServer } from './harness.js';
import { bearer, signUp } from './sign-up.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT made by hand, to present what @hapi/jwt must refuse. */
const craftJwt = (header: Record<string, unknown>, payload: Record<string, unknown>, secret: string | null): string => {
    const unsigned = `${b64(header)}.${b64(payload)}`;
    const signature = secret === null ? '' : Crypto.createHmac('sha256', secret).update(unsigned).digest('base64url');
    return `${unsigned}.${signature}`;
};

const minutes = (n: number) => n * 60_000;

describe('sessions: access tokens, refresh tokens, log-out', () => {
    let t: TestServer;
    // The same store and secrets as the server, with a clock moved forward.
    const later = (ms: number) => createAccountsService(t.app.ctx, { now: () => new Date(Date.now() + ms) });
    const refresh = (refreshToken: string) => t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
    const logout = (refreshToken: string) => t.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } });
    const me = (accessToken: string) => t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) });

    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('rotates refresh tokens; reusing one revokes its whole family, newest token included', async () => {
        const { refreshToken: first } = await signUp(t);
        const r1 = await refresh(first);
        expect(r1.statusCode).toBe(200);
        expect(r1.json).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 });
        const r2 = await refresh(r1.json.refreshToken);
        expect(r2.statusCode).toBe(200);
        const me = await t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(r2.json.accessToken) });
        expect(me.statusCode).toBe(200);

        // Past the retry window, a used token can only be a stolen copy.
        await expect(later(11_000).refresh(first)).rejects.toMatchObject({
            output: { statusCode: 401 },
            message: expect.stringMatching(/already used.*log in again/)
        });

        const newest = await refresh(r2.json.refreshToken);
        expect(newest.statusCode).toBe(401);
        expect(newest.json.message).toContain('revoked');
    });

    it('keeps sessions apart: replaying one log-in’s token leaves another log-in’s session alone', async () => {
        const { email, password, refreshToken: fromVerify } = await signUp(t);
        const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
        await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken: fromVerify } });
        await expect(later(11_000).refresh(fromVerify)).rejects.toMatchObject({ output: { statusCode: 401 } });

        const other = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken: login.json.refreshToken } });
        expect(other.statusCode).toBe(200);
    });

    it('refuses an expired refresh token', async () => {
        const { refreshToken } = await signUp(t);
        await expect(later(31 * 24 * 60 * minutes(1)).refresh(refreshToken)).rejects.toMatchObject({
            output: { statusCode: 401 },
            message: expect.stringContaining('expired')
        });
    });

    it('does not take an access token for a refresh token, nor the other way round', async () => {
        const { accessToken, refreshToken } = await signUp(t);
        const asRefresh = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken: accessToken } });
        expect(asRefresh.statusCode).toBe(401);
        const asBearer = await t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(refreshToken) });
        expect(asBearer.statusCode).toBe(401);

        // Neither attempt spent the real refresh token.
        const still = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
        expect(still.statusCode).toBe(200);
    });

    it('answers 401 to forged, expired and unsigned access tokens', async () => {
        const { accessToken } = await signUp(t);
        const { sub, sid } = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { sub: string; sid: string };
        const now = Math.floor(Date.now() / 1000);
        const claims = { sub, sid, typ: 'access', aud: TOKEN_AUDIENCE, iss: TOKEN_ISSUER, iat: now, exp: now + 600 };
        const secret = t.app.ctx.secrets.jwtSecret;

        const tokens = {
            otherSecret: craftJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'not the server secret'),
            expired: craftJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now - 3600, exp: now - 1800 }, secret),
            algNone: craftJwt({ alg: 'none', typ: 'JWT' }, claims, null),
            wrongType: craftJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, typ: 'refresh' }, secret),
            garbage: 'not.a.jwt'
        };
        for (const [name, token] of Object.entries(tokens)) {
            const res = await t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
            expect(res.statusCode, name).toBe(401);
        }

        // The control: the same claims, properly signed, pass.
        const good = await t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(craftJwt({ alg: 'HS256', typ: 'JWT' }, claims, secret)) });
        expect(good.statusCode).toBe(200);
        const none = await t.request({ method: 'GET', url: '/api/auth/me' });
        expect(none.statusCode).toBe(401);
    });

    it('refuses access tokens signed with the real secret that lack exp or iat, or are dated in the future', async () => {
        const { accessToken } = await signUp(t);
        const { sub, sid } = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { sub: string; sid: string };
        const now = Math.floor(Date.now() / 1000);
        const claims = { sub, sid, typ: 'access', aud: TOKEN_AUDIENCE, iss: TOKEN_ISSUER, iat: now, exp: now + 600 };
        const secret = t.app.ctx.secrets.jwtSecret;
        const sign = (payload: Record<string, unknown>) => craftJwt({ alg: 'HS256', typ: 'JWT' }, payload, secret);
        const { exp: _exp, ...noExp } = claims;
        const { iat: _iat, ...noIat } = claims;
        // Every access token names its session; one that names none, or another account's, is refused.
        const { sid: _sid, ...noSid } = claims;
        const { accessToken: otherAccessToken } = await signUp(t);
        const otherSid = JSON.parse(Buffer.from(otherAccessToken.split('.')[1]!, 'base64url').toString()).sid as string;

        const tokens = {
            noExp: sign(noExp),
            noIat: sign(noIat),
            futureIat: sign({ ...claims, iat: now + 3600, exp: now + 3600 + 900 }),
            slightlyFutureIat: sign({ ...claims, iat: now + 60 }),
            stringExp: sign({ ...claims, exp: String(now + 600) }),
            noSid: sign(noSid),
            otherAccountsSid: sign({ ...claims, sid: otherSid }),
            unknownSid: sign({ ...claims, sid: 'rt_unknown' })
        };
        for (const [name, token] of Object.entries(tokens)) {
            expect((await me(token)).statusCode, name).toBe(401);
        }

        // The controls: within the clock skew, and as issued.
        expect((await me(sign({ ...claims, iat: now + 2 }))).statusCode).toBe(200);
        expect((await me(sign(claims))).statusCode).toBe(200);
    });

    it('answers a retried refresh within the window with the same new pair, kept sealed in the store', async () => {
        const { refreshToken } = await signUp(t);
        const [first, second] = await Promise.all([refresh(refreshToken), refresh(refreshToken)]);
        expect(first!.statusCode).toBe(200);
        expect(second!.statusCode).toBe(200);
        expect(second!.json.refreshToken).toBe(first!.json.refreshToken);
        expect(second!.json.accessToken).toBe(first!.json.accessToken);

        // A third try a moment later still gets the same pair; the session is not signed out.
        const third = await refresh(refreshToken);
        expect(third.statusCode).toBe(200);
        expect(third.json.refreshToken).toBe(first!.json.refreshToken);
        expect((await me(first!.json.accessToken)).statusCode).toBe(200);

        // The pair waiting for a retry is encrypted with ENCRYPTION_KEY, never stored as issued.
        const row = await t.app.ctx.db.one<{ successor_enc: string }>('SELECT successor_enc FROM refresh_tokens WHERE token_hash = $1', [
            Crypto.createHash('sha256').update(refreshToken).digest('hex')
        ]);
        expect(row!.successor_enc).toMatch(/^v1\./);
        expect(row!.successor_enc).not.toContain(first!.json.refreshToken);
        expect(JSON.parse(decrypt(t.app.ctx.secrets.encryptionKey, row!.successor_enc))).toEqual({
            accessToken: first!.json.accessToken,
            refreshToken: first!.json.refreshToken
        });

        // The successor works as usual.
        const next = await refresh(first!.json.refreshToken);
        expect(next.statusCode).toBe(200);
        expect(next.json.refreshToken).not.toBe(first!.json.refreshToken);
    });

    it('reusing a refresh token after the window revokes its family', async () => {
        const { refreshToken } = await signUp(t);
        const first = await refresh(refreshToken);
        expect(first.statusCode).toBe(200);

        await expect(later(11_000).refresh(refreshToken)).rejects.toMatchObject({
            output: { statusCode: 401 },
            message: expect.stringMatching(/already used.*log in again/)
        });
        const successor = await refresh(first.json.refreshToken);
        expect(successor.statusCode).toBe(401);
        expect(successor.json.message).toContain('revoked');
    });

    it('log-out answers 204 and revokes the session, leaving other sessions alone', async () => {
        const { email, password, refreshToken } = await signUp(t);
        const other = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
        const rotated = await refresh(refreshToken);

        const res = await logout(rotated.json.refreshToken);
        expect(res.statusCode).toBe(204);
        expect(res.payload).toBe('');
        for (const token of [refreshToken, rotated.json.refreshToken]) {
            const after = await refresh(token);
            expect(after.statusCode).toBe(401);
            expect(after.json.message).toContain('revoked');
        }

        expect((await refresh(other.json.refreshToken)).statusCode).toBe(200);
        // Again, or with a token nobody issued: still 204, nothing to tell.
        expect((await logout(rotated.json.refreshToken)).statusCode).toBe(204);
        expect((await logout('rt1.not-a-token')).statusCode).toBe(204);
    });
});
