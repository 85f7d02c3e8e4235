import Crypto from 'node:crypto';

export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_COOLDOWN_MS = 60 * 1000;

/** Six digits, uniformly drawn (randomInt has no modulo bias). */
export const newOtpCode = (): string => Crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');

/**
 * A keyed hash: a stolen table cannot be brute-forced over the million codes without the server's
 * secret. Bound to the account so one account's hash is no use for another's.
 */
export const hashOtp = (secret: string, accountId: string, code: string): string =>
    Crypto.createHmac('sha256', secret).update(`flowctl-otp\0${accountId}\0${code}`).digest('hex');

export const otpMatches = (secret: string, accountId: string, code: string, storedHash: string): boolean => {
    const actual = Buffer.from(hashOtp(secret, accountId, code), 'hex');
    const expected = Buffer.from(storedHash, 'hex');
    return actual.length === expected.length && Crypto.timingSafeEqual(actual, expected);
};

export const otpMail = (to: string, fullName: string, code: string) => ({
    to,
    subject: `Your flowctl verification code: ${code}`,
    text: [
        `Hello ${fullName},`,
        '',
        `Your flowctl verification code is ${code}`,
        '',
        'Enter it within 10 minutes (flowctl verify, or POST /api/auth/verify-email).',
        'If you did not sign up for flowctl, ignore this e-mail: the account stays inactive.'
    ].join('\n')
});
