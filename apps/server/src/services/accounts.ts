import Boom from '@hapi/boom';

import type { Context } from '../context.js';
import * as Store from '../store/accounts.js';
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
}

export interface AccountsOptions {
    /** The clock every expiry is measured with; tests move it instead of sleeping. */
    now?: () => Date;
}

const WRONG_CREDENTIALS = 'Wrong e-mail address or password';

export const createAccountsService = (ctx: Context, options: AccountsOptions = {}): AccountsService => {
    const now = options.now ?? (() => new Date());
    const { db } = ctx;
    const sessions = createSessions(ctx, now);

    return {
        ...createSettingsService(ctx, now),
        ...createSignUpService(ctx, sessions, now),
        ...createPasswordResetService(ctx, now),

        async login(email, password) {
            const account = await Store.findAccountByEmailKey(db, emailKey(email));
            const { ok, rehash } = await verifyPassword(password, account?.password_hash ?? null);
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
        }
    };
};
