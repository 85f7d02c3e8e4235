import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccountsService } from '../src/services/accounts.js';
import { startTestServer, type TestServer } from './harness.js';
import { freshEmail, mailsTo, otpFor, register, resetCodeFor, signUp } from './sign-up.js';

describe('password reset', () => {
    let t: TestServer;
    const later = (ms: number) => createAccountsService(t.app.ctx, { now: () => new Date(Date.now() + ms) });
    const forgot = (email: string) => t.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
    const reset = (payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/auth/reset-password', payload });
    const login = (email: string, password: string) => t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    const refresh = (refreshToken: string) => t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });

    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('e-mails a code that sets a new password, signs every session out and revokes every API token', async () => {
        const { email, password, refreshToken: fromVerify, accessToken } = await signUp(t);
        const other = await login(email, password);
        const apiToken = await t.request({ method: 'POST', url: '/api/account/tokens', headers: { authorization: `Bearer ${accessToken}` }, payload: { name: 'ci' } });
        expect(apiToken.statusCode, apiToken.payload).toBe(201);

        const asked = await forgot(email.toUpperCase());
        expect(asked.statusCode).toBe(202);
        const otp = await resetCodeFor(t, email);
        const mail = mailsTo(t, email).at(-1)!;
        expect(mail.subject).toMatch(/password reset code/);

        const done = await reset({ email, otp, newPassword: 'a brand new password' });
        expect(done.statusCode).toBe(204);
        expect(done.payload).toBe('');

        for (const token of [fromVerify, other.json.refreshToken]) {
            const res = await refresh(token);
            expect(res.statusCode).toBe(401);
            expect(res.json.message).toContain('revoked');
        }

        // Personal API tokens too: whoever knew the old password may have made one.
        const withApiToken = await t.request({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${apiToken.json.token}` } });
        expect(withApiToken.statusCode).toBe(401);

        expect((await login(email, password)).statusCode).toBe(401);
        expect((await login(email, 'a brand new password')).statusCode).toBe(200);

        // A code works once.
        expect((await reset({ email, otp, newPassword: 'yet another password' })).statusCode).toBe(400);
        expect((await login(email, 'a brand new password')).statusCode).toBe(200);
    });

    it('answers forgot-password alike for unknown, pending and verified addresses, and e-mails only the verified one', async () => {
        const pending = freshEmail('pending');
        await register(t, { email: pending, password: 'pending password', fullName: 'Pending' });
        await otpFor(t, pending);
        const { email: verified } = await signUp(t);
        const unknown = freshEmail('unknown');

        const answers = [await forgot(unknown), await forgot(pending), await forgot(verified)];
        for (const res of answers) {
            expect(res.statusCode).toBe(202);
            expect(res.json).toEqual(answers[0]!.json);
        }

        await resetCodeFor(t, verified);
        expect(mailsTo(t, unknown)).toHaveLength(0);
        expect(mailsTo(t, pending)).toHaveLength(1);
    });

    it('one 400 for every wrong case; a code burns after five wrong tries, and sends at most one e-mail a minute', async () => {
        const { email, password } = await signUp(t);
        await forgot(email);
        const otp = await resetCodeFor(t, email);
        const wrongCode = otp === '000000' ? '111111' : '000000';

        // Within the minute, a second request sends nothing and keeps the code.
        const stored = () =>
            t.app.ctx.db.one<{ code_hash: string }>(
                "SELECT code_hash FROM email_codes JOIN accounts ON accounts.id = email_codes.account_id WHERE email_key = $1 AND purpose = 'reset'",
                [email]
            );
        const before = await stored();
        expect((await forgot(email)).statusCode).toBe(202);
        expect(await stored()).toEqual(before);

        const cases = [
            { email: freshEmail('nobody'), otp, newPassword: 'long enough' },
            ...Array.from({ length: 5 }, () => ({ email, otp: wrongCode, newPassword: 'long enough' })),
            { email, otp, newPassword: 'long enough' }
        ];
        const messages = new Set<string>();
        for (const payload of cases) {
            const res = await reset(payload);
            expect(res.statusCode).toBe(400);
            messages.add(res.json.message);
        }

        expect([...messages]).toEqual([expect.stringContaining('POST /api/auth/forgot-password')]);
        expect((await login(email, password)).statusCode).toBe(200);

        // A new code, after the cooldown, works.
        await later(61_000).forgotPassword(email);
        const fresh = await resetCodeFor(t, email, 1);
        expect((await reset({ email, otp: fresh, newPassword: 'long enough' })).statusCode).toBe(204);
    });

    it('keeps reset and sign-up codes apart: neither works for the other', async () => {
        const email = freshEmail('apart');
        await register(t, { email, password: 'apart password', fullName: 'Apart' });
        const signUpCode = await otpFor(t, email);
        expect((await reset({ email, otp: signUpCode, newPassword: 'long enough' })).statusCode).toBe(400);
        const verified = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp: signUpCode } });
        expect(verified.statusCode).toBe(200);

        await forgot(email);
        const resetCode = await resetCodeFor(t, email);
        const asVerify = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp: resetCode } });
        expect(asVerify.statusCode).toBe(400);
        expect((await reset({ email, otp: resetCode, newPassword: 'long enough' })).statusCode).toBe(204);
    });

    it('refuses a short new password, naming the field', async () => {
        const res = await reset({ email: freshEmail(), otp: '123456', newPassword: 'short' });
        expect(res.statusCode).toBe(400);
        expect(res.json.details.map((d: { path: string }) => d.path)).toEqual(['newPassword']);
    });
});
