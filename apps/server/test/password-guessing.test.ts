import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestServer, type TestServer } from './harness.js';
import { bearer, signUp } from './sign-up.js';

// Issue 18 follow-up: every route that checks the account's password is the same oracle as log-in,
// so a wrong password there counts against log-in's limit (10 per address and network per window).

const LOGIN_LIMIT = 10;

describe('password checks share the log-in limit', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    /** Moves the session's sign-in back past the 10 minutes, so the routes ask for the password. */
    const staleSession = async (accessToken: string) => {
        const sid = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid as string;
        await t.app.ctx.db.query('UPDATE sessions SET signed_in_at = $2 WHERE id = $1', [sid, new Date(Date.now() - 11 * 60_000)]);
    };

    const guesses = {
        'POST /api/account/tokens': (accessToken: string, password: string, i: number, remoteAddress: string) =>
            t.request({ method: 'POST', url: '/api/account/tokens', remoteAddress, headers: bearer(accessToken), payload: { name: `b${i}`, password } }),
        'POST /api/auth/password': (accessToken: string, password: string, _i: number, remoteAddress: string) =>
            t.request({ method: 'POST', url: '/api/auth/password', remoteAddress, headers: bearer(accessToken), payload: { newPassword: 'a-new-password', password } })
    };

    for (const [route, guess] of Object.entries(guesses)) {
        it(`${route}: answers 429 after ${LOGIN_LIMIT} wrong passwords, and log-in is then limited too`, async () => {
            const { email, accessToken } = await signUp(t);
            await staleSession(accessToken);
            const remoteAddress = '10.18.1.1';
            for (let i = 0; i < LOGIN_LIMIT; i++) {
                const wrong = await guess(accessToken, `wrong ${i}`, i, remoteAddress);
                expect(wrong.statusCode, wrong.payload).toBe(403);
                expect(wrong.json.message).toMatch(/password is wrong/);
            }

            const limited = await guess(accessToken, 'wrong again', LOGIN_LIMIT, remoteAddress);
            expect(limited.statusCode, limited.payload).toBe(429);
            expect(limited.json.message).toContain('log-in attempts for this e-mail address');
            expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

            // One counter: guessing here used up log-in's attempts for the address from this network.
            const login = await t.request({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email, password: 'wrong login' } });
            expect(login.statusCode).toBe(429);
        });
    }

    it('counts log-in attempts against the password checks of the same account', async () => {
        const { email, accessToken, password } = await signUp(t);
        await staleSession(accessToken);
        const remoteAddress = '10.18.2.1';
        for (let i = 0; i < LOGIN_LIMIT; i++) {
            const login = await t.request({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email: email.toUpperCase(), password: `wrong ${i}` } });
            expect(login.statusCode).toBe(401);
        }

        const limited = await guesses['POST /api/account/tokens'](accessToken, password, 0, remoteAddress);
        expect(limited.statusCode, limited.payload).toBe(429);
    });

    it('does not count a recent sign-in that gives no password', async () => {
        const { accessToken } = await signUp(t);
        const remoteAddress = '10.18.3.1';
        for (let i = 0; i <= LOGIN_LIMIT; i++) {
            const created = await t.request({ method: 'POST', url: '/api/account/tokens', remoteAddress, headers: bearer(accessToken), payload: { name: `t${i}` } });
            expect(created.statusCode, created.payload).toBe(201);
        }
    });
});
