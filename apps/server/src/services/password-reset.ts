import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import { newId } from '../ids.js';
import * as Store from '../store/accounts.js';
import { deleteAccountApiTokens } from '../store/api-tokens.js';
import { hashOtp, newOtpCode, OTP_MAX_ATTEMPTS, OTP_RESEND_COOLDOWN_MS, OTP_TTL_MS, otpMatches, resetCodeMail } from './otp.js';
import { hashPassword } from './passwords.js';
import type { Sessions } from './sessions.js';
import { emailKey } from './sign-up.js';

const FORGOT_MESSAGE =
    'If a verified account has this e-mail address, a password reset code is on its way (at most one a minute). Enter it with a new password at POST /api/auth/reset-password.';
const WRONG_CODE = `This reset code is not valid for this e-mail address (codes last 10 minutes and allow ${OTP_MAX_ATTEMPTS} tries): check it, or request a new one with POST /api/auth/forgot-password`;

export interface PasswordResetService {
    forgotPassword(email: string): Promise<{ message: string }>;
    /** Sets the new password, signs every session of the account out and revokes its API tokens. */
    resetPassword(input: { email: string; otp: string; newPassword: string }): Promise<void>;
}

export const createPasswordResetService = (ctx: Context, sessions: Pick<Sessions, 'ending'>, now: () => Date): PasswordResetService => {
    const { db, log } = ctx;
    const jwtSecret = ctx.secrets.jwtSecret;

    return {
        async forgotPassword(email) {
            // Like resend-otp: one answer for every address, the e-mail sent after the response.
            const account = await Store.findAccountByEmailKey(db, emailKey(email));
            if (account?.verified_at) {
                const at = now();
                const id = newId('code');
                const code = newOtpCode();
                const stored = await Store.putResetCode(
                    db,
                    { id, accountId: account.id, codeHash: hashOtp(jwtSecret, id, 'reset', code), sentAt: at, expiresAt: new Date(at.getTime() + OTP_TTL_MS) },
                    new Date(at.getTime() - OTP_RESEND_COOLDOWN_MS)
                );
                if (stored) {
                    ctx.mailer.send(resetCodeMail(account.email, code)).catch(async (err: Error) => {
                        // Without the e-mail the code is useless; dropping it lets the next request send at once.
                        await Store.takeCode(db, id).catch(() => undefined);
                        log.warn({ accountId: account.id, err: err.message }, 'password reset e-mail not sent');
                    });
                }
            }

            return { message: FORGOT_MESSAGE };
        },

        async resetPassword({ email, otp, newPassword }) {
            const account = await Store.findAccountByEmailKey(db, emailKey(email));
            // Hashed before the code is checked, so a wrong case takes as long as a right one.
            const passwordHash = await hashPassword(newPassword);
            const at = now();
            const codes = account?.verified_at ? await Store.spendCodeAttempt(db, account.id, 'reset', OTP_MAX_ATTEMPTS, at) : [];
            const code = codes.find((row) => otpMatches(jwtSecret, row.id, 'reset', otp, row.code_hash));
            if (!account || !code) {
                throw Boom.badRequest(WRONG_CODE);
            }

            const done = await sessions.ending(() => db.tx(async (tx) => {
                if (!(await Store.takeCode(tx, code.id))) {
                    return false;
                }

                await Store.updatePasswordHash(tx, account.id, passwordHash, at);
                const ended = await Store.revokeAccountRefreshTokens(tx, account.id, at);
                // Every token, not only those of the sessions this ends: whoever knew the old password may
                // have made one in a session that has ended since, and tokens made before their session was
                // recorded (migration 016) have none to go by. A reset is for a lost or stolen password.
                const apiTokens = await deleteAccountApiTokens(tx, account.id);
                log.info(
                    { accountId: account.id, revoked: ended.refreshTokens, sessions: ended.sessions.length, apiTokens },
                    'password reset: every session signed out, every API token revoked'
                );
                return true;
            }));
            if (!done) {
                throw Boom.badRequest(WRONG_CODE);
            }
        }
    };
};
