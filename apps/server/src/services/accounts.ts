import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from './tokens.js';
import { newId } from '../ids.js';
import type { Queryable } from '../store/db.js';
import * as Store from '../store/accounts.js';
import { hashOtp, newOtpCode, OTP_MAX_ATTEMPTS, OTP_RESEND_COOLDOWN_MS, OTP_TTL_MS, otpMail, otpMatches } from './otp.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { hashRefreshToken, newRefreshToken, REFRESH_TOKEN_TTL_MS } from './refresh-tokens.js';
import { createSettingsService, type SettingsService } from './settings.js';

export interface Tokens {
    accessToken: string;
    refreshToken: string;
    expiresIn: number;
}

export interface AccountView {
    id: string;
    email: string;
    fullName: string;
    createdAt: string;
}

export interface AccountsService extends SettingsService {
    register(input: { email: string; password: string; fullName: string }): Promise<{ message: string }>;
    verifyEmail(email: string, otp: string): Promise<Tokens>;
    resendOtp(email: string): Promise<{ message: string }>;
    login(email: string, password: string): Promise<Tokens>;
    refresh(refreshToken: string): Promise<Tokens>;
    me(accountId: string): Promise<AccountView>;
}

export interface AccountsOptions {
    /** The clock every expiry is measured with; tests move it instead of sleeping. */
    now?: () => Date;
}

const RESEND = 'POST /api/auth/resend-otp';
const WRONG_CREDENTIALS = 'Wrong e-mail address or password';
const NO_PENDING_CODE = `There is no pending code for this e-mail address: register with POST /api/auth/register, or request a new code with ${RESEND}`;
const RESEND_MESSAGE =
    'If an account with this e-mail address awaits verification, a new code is on its way (at most one a minute). Enter it with POST /api/auth/verify-email.';

/** The case-insensitive key that makes `Ann@Example.com` and `ann@example.com` one account. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

const retryIn = (message: string, ms: number): Boom.Boom => {
    const error = Boom.tooManyRequests(message);
    error.output.headers['Retry-After'] = String(Math.max(1, Math.ceil(ms / 1000)));
    return error;
};

export const createAccountsService = (ctx: Context, options: AccountsOptions = {}): AccountsService => {
    const now = options.now ?? (() => new Date());
    const { db, log } = ctx;
    const jwtSecret = ctx.secrets.jwtSecret;

    const issueTokens = async (q: Queryable, accountId: string, at: Date): Promise<Tokens> => {
        const refreshToken = newRefreshToken();
        await Store.insertRefreshToken(
            q,
            {
                id: newId('rt'),
                accountId,
                familyId: newId('rt'),
                tokenHash: hashRefreshToken(refreshToken),
                expiresAt: new Date(at.getTime() + REFRESH_TOKEN_TTL_MS)
            },
            at
        );
        return { accessToken: issueAccessToken(jwtSecret, accountId), refreshToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
    };

    /**
     * Stores a fresh code and returns the e-mail's delivery, or null when a code was sent within the
     * cooldown (that one stays valid).
     */
    const newOtp = async (account: { id: string; email: string; fullName: string }, at: Date): Promise<(() => Promise<void>) | null> => {
        const code = newOtpCode();
        const fresh = await Store.putOtp(
            db,
            { accountId: account.id, codeHash: hashOtp(jwtSecret, account.id, code), expiresAt: new Date(at.getTime() + OTP_TTL_MS), sentAt: at },
            new Date(at.getTime() - OTP_RESEND_COOLDOWN_MS)
        );
        if (!fresh) {
            return null;
        }

        return async () => {
            try {
                await ctx.mailer.send(otpMail(account.email, account.fullName, code));
            } catch (err) {
                // Without the e-mail the code is useless; dropping it lets the next request send at once.
                await Store.deleteOtp(db, account.id);
                log.warn({ accountId: account.id, err: (err as Error).message }, 'verification e-mail not sent');
                throw Boom.serverUnavailable(`The verification e-mail could not be sent: try again in a minute with ${RESEND}`);
            }
        };
    };

    return {
        ...createSettingsService(ctx, now),

        async register({ email, password, fullName }) {
            const key = emailKey(email);
            const existing = await Store.findAccountByEmailKey(db, key);
            if (existing?.verified_at) {
                throw Boom.conflict('An account with this e-mail address already exists: log in with POST /api/auth/login');
            }

            const at = now();
            const sentAgo = existing?.otp_sent_at ? at.getTime() - existing.otp_sent_at.getTime() : Number.POSITIVE_INFINITY;
            if (sentAgo < OTP_RESEND_COOLDOWN_MS) {
                // Changing the password must come with a new code, and codes are limited to one a minute.
                throw retryIn(
                    'A code was e-mailed to this address less than a minute ago: enter it with POST /api/auth/verify-email, or register again after Retry-After seconds to change the details and get a new code',
                    OTP_RESEND_COOLDOWN_MS - sentAgo
                );
            }

            const passwordHash = await hashPassword(password);
            let accountId: string | null;
            if (existing) {
                accountId = (await Store.updateUnverifiedAccount(db, { id: existing.id, email, fullName, passwordHash, now: at })) ? existing.id : null;
            } else {
                accountId = await Store.insertAccount(db, { id: newId('acct'), email, emailKey: key, fullName, passwordHash, now: at });
            }

            if (!accountId) {
                throw Boom.conflict('This e-mail address was registered by another request at the same moment: log in, or register again');
            }

            const deliver = await newOtp({ id: accountId, email, fullName }, at);
            await deliver?.();
            return { message: `Account created. A six-digit code was e-mailed to ${email}: confirm it within 10 minutes with POST /api/auth/verify-email.` };
        },

        async verifyEmail(email, otp) {
            const account = await Store.findAccountByEmailKey(db, emailKey(email));
            if (!account) {
                throw Boom.badRequest(NO_PENDING_CODE);
            }

            if (account.verified_at) {
                throw Boom.conflict('This e-mail address is already verified: log in with POST /api/auth/login');
            }

            const stored = await Store.spendOtpAttempt(db, account.id);
            const at = now();
            if (!stored) {
                throw Boom.badRequest(NO_PENDING_CODE);
            }

            if (stored.expires_at.getTime() <= at.getTime()) {
                throw Boom.badRequest(`This code has expired (codes last 10 minutes): request a new code with ${RESEND}`);
            }

            if (stored.attempts > OTP_MAX_ATTEMPTS) {
                throw Boom.badRequest(`Too many wrong codes: this code no longer works. Request a new code with ${RESEND}`);
            }

            if (!otpMatches(jwtSecret, account.id, otp, stored.code_hash)) {
                const left = OTP_MAX_ATTEMPTS - stored.attempts;
                throw Boom.badRequest(
                    left > 0
                        ? `Wrong code: ${left} ${left === 1 ? 'try' : 'tries'} left`
                        : `Wrong code, and that was the last try: request a new code with ${RESEND}`
                );
            }

            return await db.tx(async (tx) => {
                await Store.markVerified(tx, account.id, at);
                await Store.deleteOtp(tx, account.id);
                return await issueTokens(tx, account.id, at);
            });
        },

        async resendOtp(email) {
            // The same answer whether or not the address exists, and the e-mail goes out after the
            // response, so neither the body nor the time taken by SMTP says which.
            const account = await Store.findAccountByEmailKey(db, emailKey(email));
            if (account && !account.verified_at) {
                const deliver = await newOtp({ id: account.id, email: account.email, fullName: account.full_name }, now());
                deliver?.().catch(() => {
                    // Logged by deliver; the caller can ask again at once.
                });
            }

            return { message: RESEND_MESSAGE };
        },

        async login(email, password) {
            const account = await Store.findAccountByEmailKey(db, emailKey(email));
            const { ok, rehash } = await verifyPassword(password, account?.password_hash ?? null);
            if (!account || !ok) {
                throw Boom.unauthorized(WRONG_CREDENTIALS);
            }

            if (!account.verified_at) {
                throw Boom.forbidden(
                    `Verify your e-mail address first: enter the code we e-mailed with POST /api/auth/verify-email, or get a new one with ${RESEND}`
                );
            }

            const at = now();
            if (rehash) {
                await Store.updatePasswordHash(db, account.id, await hashPassword(password), at);
            }

            return await issueTokens(db, account.id, at);
        },

        async refresh(refreshToken) {
            const at = now();
            const presented = hashRefreshToken(refreshToken);
            const next = newRefreshToken();
            const rotated = await Store.rotateRefreshToken(
                db,
                presented,
                { id: newId('rt'), tokenHash: hashRefreshToken(next), expiresAt: new Date(at.getTime() + REFRESH_TOKEN_TTL_MS) },
                at
            );
            if (rotated) {
                return { accessToken: issueAccessToken(jwtSecret, rotated.account_id), refreshToken: next, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
            }

            // Not rotated: find out why, to answer precisely (and to catch a replay).
            const row = await Store.findRefreshToken(db, presented);
            if (row?.used_at && !row.revoked_at) {
                const revoked = await Store.revokeRefreshFamily(db, row.family_id, at);
                log.warn({ accountId: row.account_id, familyId: row.family_id, revoked }, 'refresh token reused: its family is revoked');
                throw Boom.unauthorized(
                    'This refresh token was already used (each one works once), so this session has been signed out for safety: log in again with POST /api/auth/login'
                );
            }

            if (row?.revoked_at) {
                throw Boom.unauthorized('This refresh token was revoked: log in again with POST /api/auth/login');
            }

            if (row && row.expires_at.getTime() <= at.getTime()) {
                throw Boom.unauthorized('This refresh token has expired (they last 30 days): log in again with POST /api/auth/login');
            }

            throw Boom.unauthorized('This refresh token is not valid: log in again with POST /api/auth/login');
        },

        async me(accountId) {
            const account = await Store.findAccountById(db, accountId);
            if (!account) {
                throw Boom.unauthorized('The account this token belongs to no longer exists: register or log in again');
            }

            return { id: account.id, email: account.email, fullName: account.full_name, createdAt: account.created_at.toISOString() };
        }
    };
};
