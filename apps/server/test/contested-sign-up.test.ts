import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.js';
import { createAccountsService } from '../src/services/accounts.js';
import { startTestServer, type TestServer } from './harness.js';
import { bearer, freshEmail, otpFor, register, resetCodeFor, signUp } from './sign-up.js';

// Issue 18 §2: two pending sign-ups of one address, each with its own password. The two code
// e-mails read the same, so whichever code the owner enters, no sign-up password may become usable,
// nor any sign-up's name: the verifier is signed in and sets a password first.

const minutes = (n: number) => n * 60_000;
const OWNER = 'owner password';
const STRANGER = 'stranger password';

describe('contested sign-ups', () => {
    let t: TestServer;
    const later = (ms: number) => createAccountsService(t.app.ctx, { now: () => new Date(Date.now() + ms) });
    const login = (email: string, password: string) => t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    const verify = (email: string, otp: string) => t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp } });
    const setPassword = (accessToken: string, payload: Record<string, unknown>) =>
        t.request({ method: 'POST', url: '/api/auth/password', headers: bearer(accessToken), payload });

    beforeAll(async () => {
        // Every request here comes from one address: lift its sign-up e-mail budget (rate-limit.test.ts tests it).
        t = await startTestServer({ config: { rateLimit: { ...loadConfig({}).rateLimit, mailPerIp: 1000 } } });
    });
    afterAll(() => t.close());

    /** Two sign-ups a minute apart; the codes of the owner's and the stranger's. */
    const contested = async (strangerFirst: boolean) => {
        const email = freshEmail(strangerFirst ? 'second' : 'first');
        const [first, second] = strangerFirst ? [STRANGER, OWNER] : [OWNER, STRANGER];
        expect((await register(t, { email, password: first, fullName: 'First' })).statusCode).toBe(201);
        const firstCode = await otpFor(t, email, 0);
        await later(minutes(1)).register({ email, password: second, fullName: 'Second' });
        const secondCode = await otpFor(t, email, 1);
        return strangerFirst ? { email, owners: secondCode, strangers: firstCode } : { email, owners: firstCode, strangers: secondCode };
    };

    for (const strangerFirst of [true, false]) {
        for (const entered of ['owners', 'strangers'] as const) {
            it(`the stranger signed up ${strangerFirst ? 'first' : 'second'}, the owner enters the ${entered === 'owners' ? 'own' : 'stranger’s'} code: no sign-up password or name is kept`, async () => {
                const codes = await contested(strangerFirst);
                const { email } = codes;

                const verified = await verify(email, codes[entered]);
                expect(verified.statusCode, verified.payload).toBe(200);
                expect(verified.json).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900, passwordSetupRequired: true });
                // Nor is either name: one of them is a stranger's, who may have written a message in it.
                const me = await t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(verified.json.accessToken) });
                expect(me.statusCode).toBe(200);
                expect(me.json.fullName).toBe(email.split('@')[0]);

                for (const password of [STRANGER, OWNER]) {
                    const refused = await login(email, password);
                    expect(refused.statusCode).toBe(403);
                    expect(refused.json.message).toMatch(/no password yet.*POST \/api\/auth\/password.*forgot-password/);
                }

                // The other code died with the verification.
                const other = entered === 'owners' ? codes.strangers : codes.owners;
                if (other !== codes[entered]) {
                    expect((await verify(email, other)).statusCode).toBe(400);
                }

                expect((await setPassword(verified.json.accessToken, { newPassword: 'the owner’s real password' })).statusCode).toBe(200);
                expect((await login(email, 'the owner’s real password')).statusCode).toBe(200);
                expect((await login(email, STRANGER)).statusCode).toBe(401);
                expect((await login(email, OWNER)).statusCode).toBe(401);
            });
        }
    }

    it('an uncontested sign-up keeps its password, and says so', async () => {
        const email = freshEmail('alone');
        await register(t, { email, password: OWNER, fullName: 'Alone' });
        const verified = await verify(email, await otpFor(t, email));
        expect(verified.json.passwordSetupRequired).toBe(false);
        expect((await login(email, OWNER)).statusCode).toBe(200);
    });

    it('a password reset also gives the contested account a password', async () => {
        const { email, owners } = await contested(true);
        expect((await verify(email, owners)).json.passwordSetupRequired).toBe(true);

        expect((await t.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } })).statusCode).toBe(202);
        const otp = await resetCodeFor(t, email);
        expect((await t.request({ method: 'POST', url: '/api/auth/reset-password', payload: { email, otp, newPassword: 'reset to this one' } })).statusCode).toBe(204);
        expect((await login(email, 'reset to this one')).statusCode).toBe(200);
    });

    it('setting a password needs a sign-in of the last 10 minutes, or the current password', async () => {
        const { accessToken, password, email } = await signUp(t);
        const sid = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid as string;
        await t.app.ctx.db.query('UPDATE sessions SET signed_in_at = $2 WHERE id = $1', [sid, new Date(Date.now() - minutes(11))]);

        const stale = await setPassword(accessToken, { newPassword: 'a different password' });
        expect(stale.statusCode).toBe(403);
        expect(stale.json.message).toMatch(/sign-in from the last 10 minutes/);
        expect((await setPassword(accessToken, { newPassword: 'a different password', password: 'not it at all' })).statusCode).toBe(403);
        expect((await setPassword(accessToken, { newPassword: 'a different password', password })).statusCode).toBe(200);
        expect((await login(email, 'a different password')).statusCode).toBe(200);

        const short = await setPassword(accessToken, { newPassword: 'short', password: 'a different password' });
        expect(short.statusCode).toBe(400);
        expect(short.json.message).toContain('newPassword');
    });
});
