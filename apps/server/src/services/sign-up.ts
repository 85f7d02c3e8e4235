import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { newId } from '../ids.js';
import type { Mail } from '../mail/mailer.js';
import * as Store from '../store/accounts.js';
import { stampResend, takeResendSlot } from '../store/resend-cooldowns.js';
import {
    alreadyRegisteredMail,
    hashOtp,
    newOtpCode,
    OTP_MAX_ATTEMPTS,
    OTP_RESEND_COOLDOWN_MS,
    OTP_TTL_MS,
    otpMatches,
    severalSignUpsMail,
    signUpCodeMail
} from './otp.js';
import { hashPassword } from './passwords.js';
import type { Sessions, Tokens } from './sessions.js';

/**
 * The rule against taking over an address before its owner verifies it: every registration of an
 * unverified address is a sign-up of its own, holding its own password, name and code, and a code
 * activates only the sign-up that asked for it. Registering again never changes an earlier sign-up,
 * so the owner's code can never activate a password someone else chose; the first code entered wins
 * and the other sign-ups of the address die with it.
 *
 * A sign-up lives an hour, and at most three live at once per address (a new one pushes out the
 * oldest), so a guess at verify-email is compared with few codes. Resend renews the code of the one
 * live sign-up; when several are live it cannot tell whose request it is, so it sends no code, only a
 * note to register again.
 *
 * Contested sign-ups: when more than one sign-up of the address is pending, the owner cannot tell
 * from the codes (their e-mails read the same) which one is theirs, and any of them may carry a
 * stranger's password, or a stranger's message in its name. Verifying with any of those codes then
 * activates no password at all, and names the account after its address: the verifier is signed in
 * (they proved the address) and must set a password (POST /api/auth/password, or forgot-password)
 * before a password sign-in works. An uncontested sign-up keeps its password and name.
 *
 * Register, verify and resend answer alike whether the address is unknown, pending or verified.
 */
export const SIGN_UP_TTL_MS = 60 * 60 * 1000;
export const LIVE_SIGN_UPS = 3;

const RESEND = 'POST /api/auth/resend-otp';
const REGISTERED_MESSAGE =
    'Check your inbox: a six-digit code is on its way to this address. Confirm it within 10 minutes with POST /api/auth/verify-email. If the address already has an account, the e-mail says how to log in or reset the password instead.';
const RESEND_MESSAGE = `If a sign-up with this e-mail address awaits verification, a new code is on its way (at most one a minute). Enter it with POST /api/auth/verify-email; if none arrives, register again.`;
const cooldownMessage = (seconds: number) =>
    `A code for this e-mail address was asked for less than a minute ago (at most one a minute): wait ${seconds} s, then ask again. Until then, enter the code already sent with POST /api/auth/verify-email.`;
const WRONG_CODE = `This code does not confirm a pending sign-up of this e-mail address (codes last 10 minutes and allow ${OTP_MAX_ATTEMPTS} tries): check it, or request a new one with ${RESEND}`;

/** The case-insensitive key that makes `Ann@Example.com` and `ann@example.com` one account. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

export interface SignUpService {
    register(input: { email: string; password: string; fullName: string }): Promise<{ message: string }>;
    /** The session's tokens; `passwordSetupRequired` when the sign-up was contested (see above). */
    verifyEmail(email: string, otp: string): Promise<Tokens & { passwordSetupRequired: boolean }>;
    resendOtp(email: string): Promise<{ message: string }>;
}

export const createSignUpService = (ctx: Context, sessions: Sessions, now: () => Date): SignUpService => {
    const { db, log } = ctx;
    const jwtSecret = ctx.secrets.jwtSecret;

    /** Sends, or undoes `undo` and answers 503: without its e-mail a code is useless. */
    const deliver = async (mail: Mail, accountId: string, undo?: () => Promise<unknown>): Promise<void> => {
        try {
            await ctx.mailer.send(mail);
        } catch (err) {
            await undo?.();
            log.warn({ accountId, err: (err as Error).message }, 'sign-up e-mail not sent');
            // A relay that is down is tried again at its next probe, which a new request can be.
            const next = ctx.mailer.relay?.snapshot().nextTryAt;
            const seconds = next ? Math.max(1, Math.ceil((next.getTime() - Date.now()) / 1000)) : 60;
            const error = Boom.serverUnavailable(`The e-mail could not be sent: try again in ${next ? `${seconds} s` : 'a minute'} with ${RESEND}`);
            error.output.headers['Retry-After'] = String(seconds);
            throw error;
        }
    };

    const liveSince = (at: Date) => new Date(at.getTime() - SIGN_UP_TTL_MS);

    return {
        async register({ email, password, fullName }) {
            const key = emailKey(email);
            // Hashed whatever the address, so the time taken does not tell a known address either.
            const passwordHash = await hashPassword(password);
            const at = now();
            // Whatever the address: a resend right after a registration waits like one after a resend.
            await stampResend(db, key, at);

            let account = await Store.findAccountByEmailKey(db, key);
            if (!account) {
                // When a concurrent registration creates it first, this one joins it as another sign-up.
                await Store.insertAccount(db, { id: newId('acct'), email, emailKey: key, fullName, passwordHash, now: at });
                account = await Store.findAccountByEmailKey(db, key);
            }

            if (!account) {
                throw Boom.serverUnavailable('The account could not be stored: register again');
            }

            if (account.verified_at) {
                await deliver(alreadyRegisteredMail(email), account.id);
                return { message: REGISTERED_MESSAGE };
            }

            const id = newId('code');
            const code = newOtpCode();
            await Store.insertSignUp(
                db,
                {
                    id,
                    accountId: account.id,
                    passwordHash,
                    fullName,
                    codeHash: hashOtp(jwtSecret, id, 'verify', code),
                    sentAt: at,
                    expiresAt: new Date(at.getTime() + OTP_TTL_MS)
                },
                { keep: LIVE_SIGN_UPS, liveSince: liveSince(at) }
            );
            await deliver(signUpCodeMail(email, code, at), account.id, () => Store.takeCode(db, id));
            return { message: REGISTERED_MESSAGE };
        },

        async verifyEmail(email, otp) {
            const account = await Store.findAccountByEmailKey(db, emailKey(email));
            const at = now();
            const codes = account && !account.verified_at ? await Store.spendCodeAttempt(db, account.id, 'verify', OTP_MAX_ATTEMPTS, at) : [];
            const signUp = codes.find((row) => otpMatches(jwtSecret, row.id, 'verify', otp, row.code_hash));
            if (!account || !signUp) {
                throw Boom.badRequest(WRONG_CODE);
            }

            const tokens = await db.tx(async (tx) => {
                const contested = (await Store.liveSignUps(tx, account.id, liveSince(at))).length > 1;
                const activated =
                    (await Store.takeCode(tx, signUp.id)) &&
                    (await Store.activateAccount(
                        tx,
                        account.id,
                        contested
                            ? { passwordHash: null, fullName: account.email.slice(0, account.email.lastIndexOf('@')) }
                            : { passwordHash: signUp.password_hash!, fullName: signUp.full_name! },
                        at
                    ));
                if (!activated) {
                    return null;
                }

                await Store.deleteCodes(tx, account.id, 'verify');
                if (contested) {
                    log.info({ accountId: account.id }, 'contested sign-up verified: no sign-up password kept, the owner sets one');
                }

                return { ...(await sessions.start(tx, account.id, at)), passwordSetupRequired: contested };
            });
            if (!tokens) {
                throw Boom.badRequest(WRONG_CODE);
            }

            return tokens;
        },

        async resendOtp(email) {
            // The same answer whatever the address, and the e-mail goes out after the response, so
            // neither the body nor the time taken by SMTP says which.
            const at = now();
            const cooldownStart = new Date(at.getTime() - OTP_RESEND_COOLDOWN_MS);
            // The cooldown is kept per address, known or not, so a 429 tells nothing about the address.
            const since = await takeResendSlot(db, emailKey(email), at, cooldownStart);
            if (since) {
                const seconds = Math.max(1, Math.ceil((since.getTime() + OTP_RESEND_COOLDOWN_MS - at.getTime()) / 1000));
                const error = Boom.tooManyRequests(cooldownMessage(seconds));
                error.output.headers['Retry-After'] = String(seconds);
                throw error;
            }

            const account = await Store.findAccountByEmailKey(db, emailKey(email));
            const live = account && !account.verified_at ? await Store.liveSignUps(db, account.id, liveSince(at)) : [];
            let send: (() => Promise<void>) | null = null;
            if (account && live.length === 1) {
                const code = newOtpCode();
                const signUp = live[0]!;
                const renewed = await Store.renewCode(
                    db,
                    { id: signUp.id, codeHash: hashOtp(jwtSecret, signUp.id, 'verify', code), sentAt: at, expiresAt: new Date(at.getTime() + OTP_TTL_MS) },
                    cooldownStart
                );
                // A failed delivery is logged; the caller can ask again after the cooldown.
                send = renewed ? () => deliver(signUpCodeMail(account.email, code, signUp.created_at), account.id) : null;
            } else if (account && live.length > 1 && live.every((signUp) => signUp.sent_at <= cooldownStart)) {
                send = () => deliver(severalSignUpsMail(account.email), account.id);
            }

            send?.().catch(() => {
                // Logged by deliver.
            });
            return { message: RESEND_MESSAGE };
        }
    };
};
