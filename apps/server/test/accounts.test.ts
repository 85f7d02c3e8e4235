import Crypto from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/services/tokens.js';
import { createAccountsService } from '../src/services/accounts.js';
import { startTestServer, type TestServer } from './harness.js';
import { accountsWith, bearer, freshEmail, mailsTo, otpFor, register, signUp } from './sign-up.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT made by hand, to present what @hapi/jwt must refuse. */
const craftJwt = (header: Record<string, unknown>, payload: Record<string, unknown>, secret: string | null): string => {
    const unsigned = `${b64(header)}.${b64(payload)}`;
    const signature = secret === null ? '' : Crypto.createHmac('sha256', secret).update(unsigned).digest('base64url');
    return `${unsigned}.${signature}`;
};

const minutes = (n: number) => n * 60_000;

describe('accounts', () => {
    let t: TestServer;
    // The same store and secrets as the server, with a clock moved forward.
    const later = (ms: number) => createAccountsService(t.app.ctx, { now: () => new Date(Date.now() + ms) });

    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('registers, verifies, logs in and answers /api/auth/me over a real socket', async () => {
        const email = freshEmail('socket');
        const post = (path: string, body: unknown) =>
            fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

        const registered = await post('/api/auth/register', { email, password: 'correct horse battery', fullName: 'Ada Lovelace' });
        expect(registered.status).toBe(201);
        expect(((await registered.json()) as { message: string }).message).toContain('POST /api/auth/verify-email');

        const otp = await otpFor(t, email);
        const mail = t.smtp.messages.find((message) => message.to.includes(email))!;
        expect(mail.from).toBe('no-reply@flowctl.test');
        expect(mail.text).toContain('Hello Ada Lovelace');

        const verified = await post('/api/auth/verify-email', { email, otp });
        expect(verified.status).toBe(200);
        const tokens = (await verified.json()) as { accessToken: string; refreshToken: string };
        expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 });

        const me = await fetch(`${t.url}/api/auth/me`, { headers: bearer(tokens.accessToken) });
        expect(me.status).toBe(200);
        expect(await me.json()).toEqual({ id: expect.stringMatching(/^acct_/), email, fullName: 'Ada Lovelace', createdAt: expect.any(String) });

        const login = await post('/api/auth/login', { email: email.toUpperCase(), password: 'correct horse battery' });
        expect(login.status).toBe(200);
        const again = (await login.json()) as { refreshToken: string; expiresIn: number };
        expect(again.expiresIn).toBe(900);
        expect(again.refreshToken).not.toBe(tokens.refreshToken);
    });

    it('stores the password as a self-describing scrypt hash, never as given', async () => {
        const { email, password } = await signUp(t);
        const row = await t.app.ctx.db.one<{ password_hash: string }>('SELECT password_hash FROM accounts WHERE email_key = $1', [email]);
        expect(row!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
        expect(row!.password_hash).not.toContain(password);
    });

    it('refuses a second registration of a verified address with 409, whatever its case, and keeps the account as it was', async () => {
        const { email, password } = await signUp(t);
        const res = await register(t, { email: email.toUpperCase(), password: 'another password', fullName: 'Impostor' });
        expect(res.statusCode).toBe(409);
        expect(res.json.message).toContain('POST /api/auth/login');

        const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
        expect(login.statusCode).toBe(200);
        const me = await t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(login.json.accessToken) });
        expect(me.json.fullName).toBe('Test Person');
    });

    it('re-registering an unverified address waits out the cooldown, then replaces password and name and sends a new code', async () => {
        const email = freshEmail('again');
        expect((await register(t, { email, password: 'first password', fullName: 'First' })).statusCode).toBe(201);
        const firstCode = await otpFor(t, email, 0);

        const tooSoon = await register(t, { email, password: 'second password', fullName: 'Second' });
        expect(tooSoon.statusCode).toBe(429);
        expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);
        expect(tooSoon.json.message).toContain('POST /api/auth/verify-email');
        expect(mailsTo(t, email)).toBe(1);

        await later(minutes(1) + 1000).register({ email, password: 'second password', fullName: 'Second' });
        const secondCode = await otpFor(t, email, 1);
        expect(await accountsWith(t, email)).toBe(1);

        if (firstCode !== secondCode) {
            const stale = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp: firstCode } });
            expect(stale.statusCode).toBe(400);
        }

        const verified = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp: secondCode } });
        expect(verified.statusCode).toBe(200);
        const oldPassword = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'first password' } });
        expect(oldPassword.statusCode).toBe(401);
        const newPassword = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'second password' } });
        expect(newPassword.statusCode).toBe(200);
        const me = await t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(newPassword.json.accessToken) });
        expect(me.json.fullName).toBe('Second');
    });

    it('answers log-in before verification with 403 saying how to verify, and bad credentials with one 401 message', async () => {
        const email = freshEmail('early');
        await register(t, { email, password: 'early password', fullName: 'Early' });
        const early = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'early password' } });
        expect(early.statusCode).toBe(403);
        expect(early.json.message).toContain('POST /api/auth/verify-email');
        expect(early.json.message).toContain('POST /api/auth/resend-otp');

        const wrong = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'not the password' } });
        const unknown = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: freshEmail('nobody'), password: 'whatever1' } });
        expect(wrong.statusCode).toBe(401);
        expect(unknown.statusCode).toBe(401);
        expect(unknown.json.message).toBe(wrong.json.message);
    });

    it('burns a code after five wrong tries: even the right one then fails, with what to do next', async () => {
        const email = freshEmail('guess');
        await register(t, { email, password: 'guess password', fullName: 'Guess' });
        const otp = await otpFor(t, email);
        const wrongCode = otp === '000000' ? '111111' : '000000';

        const messages: string[] = [];
        for (let i = 0; i < 5; i++) {
            const res = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp: wrongCode } });
            expect(res.statusCode).toBe(400);
            messages.push(res.json.message);
        }

        expect(messages[0]).toBe('Wrong code: 4 tries left');
        expect(messages[4]).toContain('POST /api/auth/resend-otp');

        const right = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp } });
        expect(right.statusCode).toBe(400);
        expect(right.json.message).toMatch(/Too many wrong codes.*POST \/api\/auth\/resend-otp/);
        const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'guess password' } });
        expect(login.statusCode).toBe(403);

        // A new code (after the one-minute cooldown) works.
        await later(minutes(1) + 1000).resendOtp(email);
        const fresh = await otpFor(t, email, 1);
        const verified = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp: fresh } });
        expect(verified.statusCode).toBe(200);
    });

    it('counts concurrent guesses too: a burst of wrong codes burns the code like sequential ones', async () => {
        const email = freshEmail('burst');
        await register(t, { email, password: 'burst password', fullName: 'Burst' });
        const otp = await otpFor(t, email);
        const wrongCodes = Array.from({ length: 8 }, (_, i) => String((Number(otp) + 1 + i) % 1_000_000).padStart(6, '0'));
        const results = await Promise.all(
            wrongCodes.map((code) => t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp: code } }))
        );
        expect(results.map((res) => res.statusCode)).toEqual(Array(8).fill(400));
        expect(results.filter((res) => res.json.message.startsWith('Too many wrong codes'))).toHaveLength(3);

        const right = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp } });
        expect(right.statusCode).toBe(400);
    });

    it('rehashes a password stored with older scrypt parameters at the next log-in', async () => {
        const { email, password } = await signUp(t);
        const salt = Crypto.randomBytes(16);
        const old = Crypto.scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
        await t.app.ctx.db.query('UPDATE accounts SET password_hash = $2 WHERE email_key = $1', [
            email,
            `scrypt$1024$8$1$${salt.toString('base64')}$${old.toString('base64')}`
        ]);

        const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
        expect(login.statusCode).toBe(200);
        const row = await t.app.ctx.db.one<{ password_hash: string }>('SELECT password_hash FROM accounts WHERE email_key = $1', [email]);
        expect(row!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
        expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).statusCode).toBe(200);
    });

    it('refuses an expired code and keeps the account unverified', async () => {
        const email = freshEmail('expired');
        await register(t, { email, password: 'expired password', fullName: 'Late' });
        const otp = await otpFor(t, email);

        await expect(later(minutes(10) + 1000).verifyEmail(email, otp)).rejects.toMatchObject({
            output: { statusCode: 400 },
            message: expect.stringMatching(/expired.*POST \/api\/auth\/resend-otp/)
        });
        const row = await t.app.ctx.db.one<{ verified_at: Date | null }>('SELECT verified_at FROM accounts WHERE email_key = $1', [email]);
        expect(row!.verified_at).toBeNull();
    });

    it('resend-otp: 202 with one message for every address, at most one code a minute', async () => {
        const email = freshEmail('resend');
        await register(t, { email, password: 'resend password', fullName: 'Resend' });
        await otpFor(t, email);
        const before = await t.app.ctx.db.one<{ code_hash: string }>(
            'SELECT code_hash FROM otps JOIN accounts ON accounts.id = otps.account_id WHERE email_key = $1',
            [email]
        );

        const pending = await t.request({ method: 'POST', url: '/api/auth/resend-otp', payload: { email } });
        const unknown = await t.request({ method: 'POST', url: '/api/auth/resend-otp', payload: { email: freshEmail('ghost') } });
        const { email: verifiedEmail } = await signUp(t);
        const verified = await t.request({ method: 'POST', url: '/api/auth/resend-otp', payload: { email: verifiedEmail } });
        for (const res of [pending, unknown, verified]) {
            expect(res.statusCode).toBe(202);
            expect(res.json).toEqual(pending.json);
        }

        // Within the minute: the stored code is unchanged, so nothing was sent.
        const after = await t.app.ctx.db.one<{ code_hash: string }>(
            'SELECT code_hash FROM otps JOIN accounts ON accounts.id = otps.account_id WHERE email_key = $1',
            [email]
        );
        expect(after!.code_hash).toBe(before!.code_hash);

        await later(minutes(1) + 1000).resendOtp(email);
        const second = await otpFor(t, email, 1);
        const ok = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp: second } });
        expect(ok.statusCode).toBe(200);
    });

    it('rotates refresh tokens; reusing one revokes its whole family, newest token included', async () => {
        const { refreshToken: first } = await signUp(t);
        const refresh = (refreshToken: string) => t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });

        const r1 = await refresh(first);
        expect(r1.statusCode).toBe(200);
        expect(r1.json).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 });
        const r2 = await refresh(r1.json.refreshToken);
        expect(r2.statusCode).toBe(200);
        const me = await t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(r2.json.accessToken) });
        expect(me.statusCode).toBe(200);

        const replay = await refresh(first);
        expect(replay.statusCode).toBe(401);
        expect(replay.json.message).toMatch(/already used.*log in again/);

        const newest = await refresh(r2.json.refreshToken);
        expect(newest.statusCode).toBe(401);
        expect(newest.json.message).toContain('revoked');
    });

    it('keeps sessions apart: replaying one log-in’s token leaves another log-in’s session alone', async () => {
        const { email, password, refreshToken: fromVerify } = await signUp(t);
        const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
        await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken: fromVerify } });
        await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken: fromVerify } });

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
        const sub = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sub as string;
        const now = Math.floor(Date.now() / 1000);
        const claims = { sub, typ: 'access', aud: TOKEN_AUDIENCE, iss: TOKEN_ISSUER, iat: now, exp: now + 600 };
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

    describe('bad input: a 4xx saying what to fix, and nothing changes', () => {
        const post = (payload: unknown, headers: Record<string, string> = {}) =>
            t.request({ method: 'POST', url: '/api/auth/register', payload: payload as string, headers: { 'content-type': 'application/json', ...headers } });

        it('malformed JSON', async () => {
            const email = freshEmail('malformed');
            const res = await post(`{"email": "${email}", "password": "12345678", `);
            expect(res.statusCode).toBe(400);
            expect(res.json.message).toMatch(/JSON/);
            expect(await accountsWith(t, email)).toBe(0);
        });

        it('wrong types, short password, unknown fields, bad e-mail', async () => {
            const email = freshEmail('types');
            const cases: [unknown, string][] = [
                [{ email, password: 12345678, fullName: 'X' }, 'password'],
                [{ email, password: 'short', fullName: 'X' }, 'password'],
                [{ email, password: 'long enough', fullName: ['X'] }, 'fullName'],
                [{ email, password: 'long enough', fullName: 'X', admin: true }, 'admin'],
                [{ email: 'not-an-address', password: 'long enough', fullName: 'X' }, 'email'],
                [{ email, password: 'long enough' }, 'fullName'],
                [{ email, password: 'x'.repeat(257), fullName: 'X' }, 'password'],
                [{ email, password: 'long enough', fullName: 'Line\nbreak' }, 'fullName']
            ];
            for (const [payload, field] of cases) {
                const res = await post(JSON.stringify(payload));
                expect(res.statusCode, JSON.stringify(payload)).toBe(400);
                expect(res.json.details.map((d: { path: string }) => d.path)).toContain(field);
                expect(res.json.message).toContain(field);
            }

            expect(await accountsWith(t, email)).toBe(0);
        });

        it('a body over the limit answers 413', async () => {
            const email = freshEmail('big');
            const res = await post(JSON.stringify({ email, password: 'long enough', fullName: 'x'.repeat(20_000) }));
            expect(res.statusCode).toBe(413);
            expect(res.json.message).toBe('The request body is larger than 16 KiB: send only the documented fields');
            expect(await accountsWith(t, email)).toBe(0);
        });

        it('a body that is not JSON answers 415', async () => {
            const email = freshEmail('text');
            const res = await post(`email=${email}&password=long+enough&fullName=X`, { 'content-type': 'application/x-www-form-urlencoded' });
            expect(res.statusCode).toBe(415);
            expect(res.json.message).toContain("Send the request body as JSON with 'Content-Type: application/json'");
            expect(await accountsWith(t, email)).toBe(0);
        });

        it('keeps unicode and emoji in a name, and SQL-looking text as plain text', async () => {
            const fullName = "Zoë O'Brien-Łukasz 🚀 Robert'); DROP TABLE accounts;--";
            const email = freshEmail('sql');
            expect((await register(t, { email, password: 'sql password', fullName })).statusCode).toBe(201);
            const otp = await otpFor(t, email);
            const verified = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp } });
            const me = await t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(verified.json.accessToken) });
            expect(me.json.fullName).toBe(fullName);

            const sqlEmail = await register(t, { email: "x' OR '1'='1@example.test; DROP TABLE accounts", password: 'long enough', fullName: 'X' });
            expect(sqlEmail.statusCode).toBe(400);
            expect(sqlEmail.json.details[0].path).toBe('email');
            const tables = await t.app.ctx.db.query<{ n: number }>("SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'accounts'");
            expect(tables[0]!.n).toBe(1);
        });

        it('verify-email with a malformed code or an unknown address', async () => {
            const malformed = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email: freshEmail(), otp: '12ab56' } });
            expect(malformed.statusCode).toBe(400);
            expect(malformed.json.message).toContain('six digits');

            const unknown = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email: freshEmail('nobody'), otp: '123456' } });
            expect(unknown.statusCode).toBe(400);
            expect(unknown.json.message).toContain('POST /api/auth/register');
        });

        it('verify-email of an address already verified answers 409', async () => {
            const { email } = await signUp(t);
            const res = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp: '123456' } });
            expect(res.statusCode).toBe(409);
            expect(res.json.message).toContain('POST /api/auth/login');
        });

        it('an unsendable verification e-mail answers 503 and leaves no stale code behind', async () => {
            const email = freshEmail('bounce');
            t.smtp.reject(email);
            const res = await register(t, { email, password: 'bounce password', fullName: 'Bounce' });
            expect(res.statusCode).toBe(503);
            expect(res.json.message).toContain('POST /api/auth/resend-otp');
            const otps = await t.app.ctx.db.query('SELECT 1 FROM otps JOIN accounts ON accounts.id = otps.account_id WHERE email_key = $1', [email]);
            expect(otps).toHaveLength(0);
        });
    });
});
