import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccountsService } from '../src/services/accounts.js';
import { startTestServer, store, type TestServer } from './harness.js';
import { bearer, resetCodeFor, type SignedUp, signUp } from './sign-up.js';

// Issue 18 §1: ending a session (log-out, password reset or change, refresh-token reuse) ends its access tokens
// at once, and a credential that outlives sessions (an API token) needs a recent sign-in.

const DAY_MS = 86_400_000;

/** Everything an access token may do that an ended session must no longer do. */
const uses = (t: TestServer, accessToken: string) => [
    () => t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) }),
    () => t.request({ method: 'PUT', url: '/api/account/settings', headers: bearer(accessToken), payload: { ai: { model: 'gpt-4o-mini' } } }),
    () => t.request({ method: 'POST', url: '/api/account/tokens', headers: bearer(accessToken), payload: { name: 'after the end' } })
];

const expectEnded = async (t: TestServer, accessToken: string) => {
    for (const use of uses(t, accessToken)) {
        const res = await use();
        expect(res.statusCode, res.payload).toBe(401);
        expect(res.json.message).toMatch(/session has ended.*log in again/);
    }

    const tokens = await t.request({ method: 'GET', url: '/api/account/tokens', headers: bearer(accessToken) });
    expect(tokens.statusCode).toBe(401);
};

describe('an ended session ends its access tokens at once', () => {
    let t: TestServer;
    const login = (email: string, password: string) => t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    const me = (accessToken: string) => t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) });

    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('after a password reset: every session of the account', async () => {
        const { email, password, accessToken }: SignedUp = await signUp(t);
        const other = await login(email, password);
        expect((await me(accessToken)).statusCode).toBe(200);

        expect((await t.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } })).statusCode).toBe(202);
        const otp = await resetCodeFor(t, email);
        const reset = await t.request({ method: 'POST', url: '/api/auth/reset-password', payload: { email, otp, newPassword: 'a new password, long enough' } });
        expect(reset.statusCode).toBe(204);

        await expectEnded(t, accessToken);
        await expectEnded(t, other.json.accessToken);
        const fresh = await login(email, 'a new password, long enough');
        expect((await me(fresh.json.accessToken)).statusCode).toBe(200);
    });

    it('after a password change: every other session, and their refresh tokens; this one stays', async () => {
        const { email, password, accessToken, refreshToken }: SignedUp = await signUp(t);
        const other = await login(email, password);
        const changed = await t.request({ method: 'POST', url: '/api/auth/password', headers: bearer(accessToken), payload: { newPassword: 'a changed password, long enough' } });
        expect(changed.statusCode, changed.payload).toBe(204);

        await expectEnded(t, other.json.accessToken);
        const stale = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken: other.json.refreshToken } });
        expect(stale.statusCode).toBe(401);
        expect((await me(accessToken)).statusCode).toBe(200);
        const kept = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
        expect(kept.statusCode, kept.payload).toBe(200);
        expect((await login(email, 'a changed password, long enough')).statusCode).toBe(200);
    });

    it('after log-out: that session only', async () => {
        const { email, password, accessToken, refreshToken } = await signUp(t);
        const other = await login(email, password);
        const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });

        expect((await t.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: refreshed.json.refreshToken } })).statusCode).toBe(204);

        // Both the access token from before the refresh and the one it was exchanged for.
        await expectEnded(t, accessToken);
        await expectEnded(t, refreshed.json.accessToken);
        expect((await me(other.json.accessToken)).statusCode).toBe(200);
    });

    it('after refresh-token reuse revoked the family: its newest access token too', async () => {
        const { accessToken, refreshToken } = await signUp(t);
        const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
        expect((await me(refreshed.json.accessToken)).statusCode).toBe(200);

        // Past the retry window, the used token can only be a stolen copy.
        const later = createAccountsService(t.app.ctx, { now: () => new Date(Date.now() + 11_000) });
        await expect(later.refresh(refreshToken)).rejects.toMatchObject({ output: { statusCode: 401 } });

        await expectEnded(t, accessToken);
        await expectEnded(t, refreshed.json.accessToken);
    });
});

describe('personal API tokens need a recent sign-in and always expire', () => {
    let t: TestServer;
    const create = (accessToken: string, payload: Record<string, unknown>) =>
        t.request({ method: 'POST', url: '/api/account/tokens', headers: bearer(accessToken), payload });
    /** Moves the session's sign-in back, as if it had been refreshed for that long since. */
    const signedInAgo = async (accessToken: string, ms: number) => {
        const sid = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid as string;
        await t.app.ctx.db.query('UPDATE sessions SET signed_in_at = $2 WHERE id = $1', [sid, new Date(Date.now() - ms)]);
    };

    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('refuses with 403 when the sign-in is older than 10 minutes, unless the password comes again', async () => {
        const { accessToken, password } = await signUp(t);
        await signedInAgo(accessToken, 11 * 60_000);

        const stale = await create(accessToken, { name: 'ci' });
        expect(stale.statusCode).toBe(403);
        expect(stale.json.message).toMatch(/sign-in from the last 10 minutes: log in again/);

        const wrong = await create(accessToken, { name: 'ci', password: `${password}-not` });
        expect(wrong.statusCode).toBe(403);
        expect(wrong.json.message).toMatch(/password is wrong/);

        const withPassword = await create(accessToken, { name: 'ci', password });
        expect(withPassword.statusCode, withPassword.payload).toBe(201);
    });

    it('gives a token 90 days when no expiry is asked, and refuses more than 365', async () => {
        const { accessToken } = await signUp(t);
        const created = await create(accessToken, { name: 'ci' });
        expect(created.statusCode, created.payload).toBe(201);
        expect(Date.parse(created.json.expiresAt) - Date.parse(created.json.createdAt)).toBe(90 * DAY_MS);

        const year = await create(accessToken, { name: 'yearly', expiresInDays: 365 });
        expect(Date.parse(year.json.expiresAt) - Date.parse(year.json.createdAt)).toBe(365 * DAY_MS);

        const forever = await create(accessToken, { name: 'forever', expiresInDays: 366 });
        expect(forever.statusCode).toBe(400);
        expect(forever.json.message).toContain('expiresInDays');
    });
});

if (store === 'postgres') {
    describe('across API processes on one PostgreSQL', () => {
        it('a log-out in one process ends the access token in the other at once', async () => {
            const one = await startTestServer({ config: { role: 'api' } });
            const two = await startTestServer({ testStore: one.testStore, config: { role: 'api' } });
            try {
                const { accessToken, refreshToken } = await signUp(one);
                expect((await two.request({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) })).statusCode).toBe(200);
                expect((await one.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } })).statusCode).toBe(204);
                await expectEnded(two, accessToken);
            } finally {
                await two.close();
                await one.close();
            }
        });
    });
}
