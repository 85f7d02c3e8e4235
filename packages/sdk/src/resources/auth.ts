import type { Flowctl, RequestOptions } from '../client.js';
import type { Account, LoginParams, Message, PasswordChange, RegisterParams, ResetPasswordParams, SetPasswordParams, TokenPair, VerifiedTokens, VerifyEmailParams } from '../types.js';

/** Sign-up, log-in and the client's tokens: `client.auth`. */
export class Auth {
    readonly #client: Flowctl;

    constructor(client: Flowctl) {
        this.#client = client;
    }

    /** Creates an account and e-mails a six-digit code; confirm it with `verifyEmail()`. */
    async register(params: RegisterParams, options?: RequestOptions): Promise<Message> {
        const res = await this.#client.request({ ...options, method: 'POST', path: '/api/auth/register', json: params, auth: false });
        return res.body as Message;
    }

    /**
     * Confirms the e-mailed code. The client then uses the returned tokens (and hands them to `onTokens`).
     * With `passwordSetupRequired: true` (more than one sign-up of the address was pending, so none of
     * their passwords was kept) call `setPassword()` next: until then no password logs in.
     */
    async verifyEmail(params: VerifyEmailParams, options?: RequestOptions): Promise<VerifiedTokens> {
        return (await this.#signIn('/api/auth/verify-email', params, options)) as VerifiedTokens;
    }

    /**
     * Sets the account's password. Needs a sign-in (log-in or verify-email) of the last 10 minutes, or
     * the current password as `password`; the server answers 403 otherwise. Every other session is
     * signed out, and the API tokens those sessions created are revoked (`revokedApiTokens`); check the
     * tokens left (`apiTokens`) and revoke any you do not recognise with `account.tokens.revoke()`.
     */
    async setPassword(params: SetPasswordParams, options?: RequestOptions): Promise<PasswordChange> {
        return (await this.#client.request({ ...options, method: 'POST', path: '/api/auth/password', json: params })).body as PasswordChange;
    }

    /** E-mails a new verification code (the answer is the same whether or not the address has an account). */
    /** E-mails a six-digit code to reset a forgotten password (the same answer whether or not the address has an account). */
    async forgotPassword(params: { email: string }, options?: RequestOptions): Promise<Message> {
        const res = await this.#client.request({ ...options, method: 'POST', path: '/api/auth/forgot-password', json: params, auth: false });
        return res.body as Message;
    }

    /** Sets a new password with the code `forgotPassword()` e-mailed. Every session of the account is signed out: log in again. */
    async resetPassword(params: ResetPasswordParams, options?: RequestOptions): Promise<void> {
        await this.#client.request({ ...options, method: 'POST', path: '/api/auth/reset-password', json: params, auth: false });
    }

    async resendOtp(params: { email: string }, options?: RequestOptions): Promise<Message> {
        const res = await this.#client.request({ ...options, method: 'POST', path: '/api/auth/resend-otp', json: params, auth: false });
        return res.body as Message;
    }

    /** Logs in. The client then uses the returned tokens (and hands them to `onTokens`). */
    async login(params: LoginParams, options?: RequestOptions): Promise<TokenPair> {
        return this.#signIn('/api/auth/login', params, options);
    }

    /**
     * Exchanges a refresh token (by default the client's own) for a new pair, which the client adopts.
     * The client does this by itself when its access token expires; call it only to refresh ahead.
     */
    async refresh(refreshToken?: string, options?: RequestOptions): Promise<TokenPair> {
        const token = refreshToken ?? this.#client.session.refreshToken;
        if (!token) {
            throw new TypeError('auth.refresh(): no refresh token: log in first or pass one');
        }

        return this.#signIn('/api/auth/refresh-token', { refreshToken: token }, options);
    }

    /** The account the client's credentials belong to. */
    async me(options?: RequestOptions): Promise<Account> {
        const res = await this.#client.request({ ...options, method: 'GET', path: '/api/auth/me' });
        return res.body as Account;
    }

    /** Signs this session out on the server (its refresh tokens stop working) and forgets the tokens. */
    async logout(options?: RequestOptions): Promise<void> {
        const refreshToken = this.#client.session.refreshToken;
        await this.#client.request({ ...options, method: 'POST', path: '/api/auth/logout', json: refreshToken ? { refreshToken } : {} });
        this.#client.session.clear();
    }

    async #signIn(path: string, json: unknown, options: RequestOptions | undefined): Promise<TokenPair> {
        const res = await this.#client.request({ ...options, method: 'POST', path, json, auth: false });
        const pair = res.body as TokenPair;
        await this.#client.session.store(pair);
        return pair;
    }
}
