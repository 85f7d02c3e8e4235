import Crypto from 'node:crypto';

import type { Mail } from '../mail/mailer.js';

export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_COOLDOWN_MS = 60 * 1000;

export type CodePurpose = 'verify' | 'reset';

/** Six digits, uniformly drawn (randomInt has no modulo bias). */
export const newOtpCode = (): string => Crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');

/**
 * A keyed hash: a stolen table cannot be brute-forced over the million codes without the server's
 * secret. Bound to the code's own row (one sign-up, or one reset) and its purpose, so a code never
 * matches any other sign-up's row, even of the same address.
 */
export const hashOtp = (secret: string, codeId: string, purpose: CodePurpose, code: string): string =>
    Crypto.createHmac('sha256', secret).update(`flowctl-otp\0${codeId}\0${purpose}\0${code}`).digest('hex');

export const otpMatches = (secret: string, codeId: string, purpose: CodePurpose, code: string, storedHash: string): boolean => {
    const actual = Buffer.from(hashOtp(secret, codeId, purpose, code), 'hex');
    const expected = Buffer.from(storedHash, 'hex');
    return actual.length === expected.length && Crypto.timingSafeEqual(actual, expected);
};

// The e-mails carry only text of the server's own: nothing a requester typed (not even the name given
// at sign-up), since anyone can make the server write to any address.

const utc = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export const signUpCodeMail = (to: string, code: string, signedUpAt: Date): Mail => ({
    to,
    subject: `Your flowctl verification code: ${code}`,
    text: [
        `Your flowctl verification code is ${code}`,
        '',
        `It confirms the sign-up made at ${utc(signedUpAt)}, with the password chosen then.`,
        'Enter it within 10 minutes (flowctl verify, or POST /api/auth/verify-email).',
        'If you did not sign up for flowctl at that time, ignore this e-mail: without the code, that sign-up stays inactive.'
    ].join('\n')
});

export const resetCodeMail = (to: string, code: string): Mail => ({
    to,
    subject: `Your flowctl password reset code: ${code}`,
    text: [
        `Your flowctl password reset code is ${code}`,
        '',
        'Enter it with a new password within 10 minutes (POST /api/auth/reset-password). Every session of the account is then signed out.',
        'If you did not ask to reset your password, ignore this e-mail: your password stays as it is.'
    ].join('\n')
});

export const alreadyRegisteredMail = (to: string): Mail => ({
    to,
    subject: 'Someone tried to sign up to flowctl with your address',
    text: [
        'Someone tried to sign up to flowctl with this e-mail address, which already has an account. Nothing was changed.',
        '',
        'If it was you: log in (flowctl login, or POST /api/auth/login), or, if you forgot your password, reset it (POST /api/auth/forgot-password).',
        'If it was not you, ignore this e-mail.'
    ].join('\n')
});

export const severalSignUpsMail = (to: string): Mail => ({
    to,
    subject: 'Your flowctl sign-up: register again for a new code',
    text: [
        'A new flowctl verification code was asked for this e-mail address, but more than one sign-up with it is pending, so no code was sent: a code must only confirm the password chosen by the person who asked for it.',
        '',
        'If you signed up, use the code from the e-mail that came right after your sign-up, or register again (POST /api/auth/register) to get a code for your own sign-up.',
        'If you did not sign up for flowctl, ignore this e-mail.'
    ].join('\n')
});
