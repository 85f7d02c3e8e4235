import Crypto from 'node:crypto';

import { expect } from 'vitest';

import type { TestServer } from './harness.js';

export const freshEmail = (tag = 'user'): string => `${tag}-${Crypto.randomBytes(5).toString('hex')}@example.test`;

/** The e-mails the sink received for `email`, oldest first. */
export const mailsTo = (t: TestServer, email: string) =>
    t.smtp.messages.filter((message) => message.to.map((to) => to.toLowerCase()).includes(email.toLowerCase()));

/** The code in the `index`-th e-mail (0-based) to `email` whose text matches `pattern`, waiting for it if need be. */
const codeFor = async (t: TestServer, email: string, pattern: RegExp, index: number): Promise<string> => {
    for (;;) {
        const codes = mailsTo(t, email).flatMap((message) => pattern.exec(message.text)?.[1] ?? []);
        if (codes.length > index) {
            return codes[index]!;
        }

        await t.smtp.waitFor(t.smtp.messages.length + 1);
    }
};

/** The code of the `index`-th verification e-mail (0-based) the SMTP sink received for `email`. */
export const otpFor = (t: TestServer, email: string, index = 0): Promise<string> => codeFor(t, email, /verification code is (\d{6})/, index);

/** The code of the `index`-th password reset e-mail (0-based) for `email`. */
export const resetCodeFor = (t: TestServer, email: string, index = 0): Promise<string> => codeFor(t, email, /password reset code is (\d{6})/, index);

export const register = (t: TestServer, payload: Record<string, unknown>, remoteAddress?: string) =>
    t.request({ method: 'POST', url: '/api/auth/register', payload, ...(remoteAddress ? { remoteAddress } : {}) });

export interface SignedUp {
    email: string;
    password: string;
    accessToken: string;
    refreshToken: string;
}

/** Register and verify through the API, reading the code from the real SMTP sink. */
export const signUp = async (t: TestServer, email = freshEmail(), password = `pw-${Crypto.randomBytes(6).toString('hex')}`): Promise<SignedUp> => {
    const registered = await register(t, { email, password, fullName: 'Test Person' });
    expect(registered.statusCode, registered.payload).toBe(201);
    const otp = await otpFor(t, email);
    const verified = await t.request({ method: 'POST', url: '/api/auth/verify-email', payload: { email, otp } });
    expect(verified.statusCode, verified.payload).toBe(200);
    return { email, password, accessToken: verified.json.accessToken, refreshToken: verified.json.refreshToken };
};

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Row count for an address, to show that a refused request changed nothing. */
export const accountsWith = async (t: TestServer, email: string): Promise<number> => {
    const rows = await t.app.ctx.db.query<{ n: number }>('SELECT count(*) AS n FROM accounts WHERE email_key = $1', [email.trim().toLowerCase()]);
    return rows[0]!.n;
};
