import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import * as Store from '../store/accounts.js';
import { deleteSessionsApiTokens, listApiTokens } from '../store/api-tokens.js';
import { type ApiTokenView, toApiTokenView } from './api-tokens.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { createPasswordResetService, type PasswordResetService } from './password-reset.js';
import { createSessions, type Tokens } from './sessions.js';
import { createSettingsService, type SettingsService } from './settings.js';
import { createSignUpService, emailKey, type SignUpService } from './sign-up.js';

export interface AccountView {
    id: string;
    email: string;
    fullName: string;
    createdAt: string;
}

export interface AccountsService extends SettingsService, SignUpService, PasswordResetService {
    login(email: string, password: string): Promise<Tokens>;
    refresh(refreshToken: string): Promise<Tokens>;
    logout(refreshToken: string): Promise<void>;
    me(accountId: string): Promise<AccountView>;
    /** When the session signed in, or null once it has ended. */
    sessionSignedInAt(sessionId: string, accountId: string, fresh?: boolean): Promise<Date | null>;
    /**
     * For what a stolen access token must not do alone (create an API token, set a password): a
     * sign-in from the last RECENT_SIGN_IN_MS, or the account's password given again. 403 otherwise.
     */
    confirmRecentSignIn(accountId: string, proof: { signedInAt: Date | null; password?: string }): Promise<void>;
    /**
     * Sets a new password for a signed-in account (one that has none after a contested sign-up, or any),
     * and signs every other session out: whoever else knew the old password, or holds a stolen refresh
     * token, is out. `sessionId` stays signed in. The API tokens those sessions made are revoked with
     * them (a stolen session's token must not outlive the change); the answer names them and the tokens
     * that remain, for the owner to check.
     */
    setPassword(accountId: string, input: { newPassword: string; sessionId: string; signedInAt: Date | null; password?: string }): Promise<PasswordChange>;
}

export interface PasswordChange {
    /** Made by the sessions the change signed out: they no longer work. */
    revokedApiTokens: ApiTokenView[];
    /** Every token still working, newest first: this session's, and those of sessions that had already ended. */
    apiTokens: ApiTokenView[];
}

export interface AccountsOptions {
    /** The clock every expiry is measured with; tests move it instead of sleeping. */
    now?: () => Date;
}

const WRONG_CREDENTIALS = 'Wrong e-mail address or password';

const PASSWORD_UNSET =
    'This account has no password yet: more than one sign-up of this address was pending when it was verified, so none of their passwords was kept. Set one with POST /api/auth/password (flowctl verify does) using the tokens verify-email gave, or reset it with POST /api/auth/forgot-password';

/** How long after a sign-in its session may create API tokens or set a password without the password. */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

export const createAccountsService = (ctx: Context, options: AccountsOptions = {}): AccountsService => {
    const now = options.now ?? (() => new Date());
    const { db, log } = ctx;
    const sessions = createSessions(ctx, now);

    const confirmRecentSignIn: AccountsService['confirmRecentSignIn'] = async (accountId, { signedInAt, password }) => {
        if (password !== undefined) {
            const account = await Store.findAccountById(db, accountId);
            const { ok } = await verifyPassword(password, account && !account.password_unset ? account.password_hash : null);
            if (!ok) {
                throw Boom.forbidden("The password is wrong: give the account's current password as 'password', or log in again");
            }

            return;
        }

        if (!signedInAt || now().getTime() - signedInAt.getTime() > RECENT_SIGN_IN_MS) {
            throw Boom.forbidden(
                `This needs a sign-in from the last ${RECENT_SIGN_IN_MS / 60_000} minutes: log in again (POST /api/auth/login) and retry, or give the account's password as 'password'`
            );
        }
    };

    return {
        ...createSettingsService(ctx, now),
        ...createSignUpService(ctx, sessions, now),
        ...createPasswordResetService(ctx, sessions, now),

        async login(email, password) {
            const account = await Store.findAccountByEmailKey(db, emailKey(email));
            const { ok, rehash } = await verifyPassword(password, account?.password_hash ?? null);
            if (account?.password_unset) {
                // No password can match: say how to get one.
                throw Boom.forbidden(PASSWORD_UNSET);
            }

            if (!account || !ok) {
                throw Boom.unauthorized(WRONG_CREDENTIALS);
            }

            if (!account.verified_at) {
                throw Boom.forbidden(
                    'Verify your e-mail address first: enter the code we e-mailed with POST /api/auth/verify-email, or get a new one with POST /api/auth/resend-otp'
                );
            }

            const at = now();
            if (rehash) {
                await Store.updatePasswordHash(db, account.id, await hashPassword(password), at);
            }

            return await sessions.start(db, account.id, at);
        },

        refresh: (refreshToken) => sessions.refresh(refreshToken),
        logout: (refreshToken) => sessions.logout(refreshToken),

        async me(accountId) {
            const account = await Store.findAccountById(db, accountId);
            if (!account) {
                throw Boom.unauthorized('The account this token belongs to no longer exists: register or log in again');
            }

            return { id: account.id, email: account.email, fullName: account.full_name, createdAt: account.created_at.toISOString() };
        },

        sessionSignedInAt: (sessionId, accountId, fresh) => sessions.signedInAt(sessionId, accountId, fresh),

        confirmRecentSignIn,

        async setPassword(accountId, { newPassword, sessionId, signedInAt, password }) {
            await confirmRecentSignIn(accountId, { signedInAt, password });
            const passwordHash = await hashPassword(newPassword);
            const at = now();
            const change = await sessions.ending(() => db.tx(async (tx) => {
                await Store.updatePasswordHash(tx, accountId, passwordHash, at);
                const ended = await Store.revokeAccountRefreshTokens(tx, accountId, at, sessionId);
                // A statement of its own, after the sessions ended: it sees a token whose insert held
                // its session while the change waited (store/api-tokens.ts insertApiToken).
                const revoked = await deleteSessionsApiTokens(tx, accountId, ended.sessions);
                log.info(
                    { accountId, revoked: ended.refreshTokens, sessions: ended.sessions.length, apiTokens: revoked.length },
                    'password set: every other session signed out, with the API tokens they made'
                );
                return { revokedApiTokens: revoked.map(toApiTokenView), apiTokens: (await listApiTokens(tx, accountId)).map(toApiTokenView) };
            }));
            return change;
        }
    };
};
