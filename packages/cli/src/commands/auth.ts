// register, verify, set-password, reset-password, login, logout, whoami.
import type { PasswordChange } from '@flowctl/sdk';

import { anonymousClient, apiUrlOf, client, credentialSource, normalizeApiUrl, tokensBelongTo } from '../client.js';
import { cliWording } from '../cli-wording.js';
import type { Ctx, Register } from '../context.js';
import { readProfile, updateProfile } from '../credentials.js';
import { CliError, EXIT } from '../errors.js';
import { emit, green, note, table } from '../io.js';
import { ask, canPrompt, readStdin } from '../prompt.js';
import { flowctlCommand } from '../next-command.js';
import { inline, message } from '../visible.js';
import { examples } from './help.js';

const MIN_PASSWORD = 8;

const password = async (ctx: Ctx, fromStdin: boolean | undefined, message: string): Promise<string> =>
    fromStdin
        ? readStdin(ctx.io, '--password-stdin')
        : ask(ctx.io, {
              value: undefined,
              flag: '--password-stdin (and pipe the password in)',
              message,
              secret: true,
              validate: (value) => (value.length >= MIN_PASSWORD ? true : `at least ${MIN_PASSWORD} characters`)
          });

const email = (ctx: Ctx, value: string | undefined) =>
    ask(ctx.io, {
        value: value ?? readProfile(ctx.profile, ctx.io.env).email,
        flag: '--email <address>',
        message: 'E-mail address:',
        validate: (text) => (text.includes('@') ? true : 'an e-mail address, like me@example.com')
    });

const signedIn = (ctx: Ctx, address: string, pair: { accessToken: string; refreshToken: string }, verb: string, extra: Record<string, unknown> = {}) => {
    const apiUrl = apiUrlOf(ctx);
    updateProfile(ctx.profile, { apiUrl, email: address, accessToken: pair.accessToken, refreshToken: pair.refreshToken }, ctx.io.env);
    emit(ctx.io, { email: address, apiUrl, profile: ctx.profile, signedIn: true, ...extra }, () => `${green(ctx.io, '✓')} ${verb} ${address} on ${apiUrl}`);
    if (ctx.io.env.FLOWCTL_TOKEN) {
        note(ctx.io, 'note: FLOWCTL_TOKEN is set and is used instead of this sign-in while it is');
    }
};

/**
 * After a contested sign-up (two were pending for the address) no sign-up password was kept: the
 * verifier, just signed in, sets one now, while the sign-in is recent enough for the server.
 */
const setUpPassword = async (ctx: Ctx, address: string, piped: string | undefined): Promise<void> => {
    note(ctx.io, `more than one sign-up of ${address} was pending, so none of their passwords was kept: choose the account's password now`);
    const newPassword =
        piped ??
        (await password(ctx, false, `New password (at least ${MIN_PASSWORD} characters):`).catch((err: unknown) => {
            const why = err instanceof CliError ? err.message : String(err);
            throw new CliError(
                `signed in, but the account has no password yet (${why})`,
                EXIT.usage,
                `within 10 minutes: printf %s "$PASSWORD" | ${flowctlCommand(ctx, 'set-password --password-stdin')} (later: logging in is not possible; reset the password with ${flowctlCommand(ctx, `reset-password --email ${address}`)})`
            );
        }));
    await setPassword(ctx, newPassword, false);
};

/**
 * What a password change did to personal API tokens. Those the signed-out sessions made are revoked by
 * the server; the rest still work, including any made by a session that had ended before, or before the
 * server recorded which session made a token: listed, so the owner can revoke one they do not know.
 */
const tokenLines = (ctx: Ctx, change: PasswordChange): string[] => {
    const lines: string[] = [];
    const revoked = change.revokedApiTokens;
    if (revoked.length > 0) {
        const named = revoked.map((t) => `${inline(t.id)} (${inline(t.name)})`).join(', ');
        lines.push(`revoked ${revoked.length} API token${revoked.length === 1 ? '' : 's'} made by those sessions: ${named}`);
    }

    if (change.apiTokens.length > 0) {
        lines.push(
            'API tokens still working:',
            ...table([['ID', 'NAME', 'CREATED', 'LAST USED', 'EXPIRES'], ...change.apiTokens.map((t) => [t.id, t.name, t.createdAt, t.lastUsedAt ?? '-', t.expiresAt ?? 'never'])]),
            `revoke any you do not recognise: ${flowctlCommand(ctx, 'tokens revoke <id>')}`
        );
    }

    return lines;
};

/** `answer`: print the result as the command's answer; otherwise only a note (verify answers for itself). */
const setPassword = async (ctx: Ctx, newPassword: string, answer = true): Promise<void> => {
    const api = await client(ctx);
    const change = await api.auth.setPassword({ newPassword }).catch(async (err: unknown) => {
        const { PermissionDeniedError } = await import('@flowctl/sdk');
        if (err instanceof PermissionDeniedError) {
            throw new CliError(`the password was not set: ${message(err.message)}`, EXIT.auth, `sign in again (${flowctlCommand(ctx, 'login')}), then ${flowctlCommand(ctx, 'set-password')}`);
        }

        throw err;
    });
    const done = `${green(ctx.io, '✓')} password set: ${flowctlCommand(ctx, 'login')} works with it; every other session is signed out`;
    if (answer) {
        emit(ctx.io, { passwordSet: true, ...change }, () => [done, ...tokenLines(ctx, change)]);
    } else {
        for (const line of [done, ...tokenLines(ctx, change)]) {
            note(ctx.io, line);
        }
    }
};

export const register: Register = (program, ctx) => {
    program
        .command('register')
        .description('create an account; a six-digit code is e-mailed to verify it')
        .option('--email <address>', 'the account e-mail address')
        .option('--full-name <name>', 'your name')
        .option('--password-stdin', 'read the password from stdin (for scripts)')
        .addHelpText('after', examples('flowctl register --email me@example.com --full-name "Me"', 'printf %s "$PASSWORD" | flowctl register --email me@example.com --full-name Me --password-stdin'))
        .action(async (opts: { email?: string; fullName?: string; passwordStdin?: boolean }) => {
            const c = ctx();
            const address = await email(c, opts.email);
            const fullName = await ask(c.io, { value: opts.fullName, flag: '--full-name <name>', message: 'Full name:' });
            const secret = await password(c, opts.passwordStdin, `Password (at least ${MIN_PASSWORD} characters):`);
            const api = await anonymousClient(c);
            const answer = await api.auth.register({ email: address, password: secret, fullName });
            // The profile now names this server; a sign-in saved for another one is dropped, never
            // carried over (it would then be sent to this server).
            const apiUrl = apiUrlOf(c);
            const saved = readProfile(c.profile, c.io.env);
            const otherServer = saved.apiUrl !== undefined && normalizeApiUrl(saved.apiUrl) !== apiUrl;
            updateProfile(c.profile, { apiUrl, email: address, ...(otherServer ? { accessToken: undefined, refreshToken: undefined } : {}) }, c.io.env);
            emit(c.io, { email: address, message: cliWording(answer.message) }, () => [
                `${green(c.io, '✓')} registered ${address}: a six-digit code is on its way there`,
                `next: ${flowctlCommand(c, `verify --email ${address} --code <code>`)}`
            ]);
        });

    program
        .command('verify')
        .description('verify your e-mail address with the code you received, and sign in')
        .option('--email <address>', 'the address you registered (default: the last one registered with this profile)')
        .option('--code <digits>', 'the six-digit code from the e-mail')
        .option('--resend', 'e-mail a new code instead (one a minute)')
        .option('--password-stdin', 'when the server asks for a new password (contested sign-up), read it from stdin')
        .addHelpText('after', examples('flowctl verify --email me@example.com --code 123456', 'flowctl verify --email me@example.com --resend'))
        .action(async (opts: { email?: string; code?: string; resend?: boolean; passwordStdin?: boolean }) => {
            const c = ctx();
            const address = await email(c, opts.email);
            const api = await anonymousClient(c);
            if (opts.resend) {
                await api.auth.resendOtp({ email: address }).catch(async (err: unknown) => {
                    const { RateLimitError } = await import('@flowctl/sdk');
                    if (err instanceof RateLimitError) {
                        // One code a minute per address: say when the next one can be asked for.
                        const seconds = err.retryAfter ?? 60;
                        const at = new Date(Date.now() + seconds * 1000).toISOString().slice(11, 19);
                        throw new CliError(
                            `no new code was sent: one was asked for ${address} less than a minute ago`,
                            EXIT.failed,
                            `try again in ${seconds} s (after ${at} UTC): ${flowctlCommand(c, `verify --email ${address} --resend`)}; or enter the code already sent: ${flowctlCommand(c, `verify --email ${address} --code <code>`)}`,
                            { retryAfter: seconds }
                        );
                    }

                    throw err;
                });
                emit(c.io, { email: address, resent: true }, () => [`${green(c.io, '✓')} a new code is on its way to ${address}`, `next: ${flowctlCommand(c, `verify --email ${address} --code <code>`)}`]);
                return;
            }

            // Read up front: stdin can be read once, and the code is spent once verify-email answers.
            const piped = opts.passwordStdin ? await password(c, true, '') : undefined;

            const code = await ask(c.io, {
                value: opts.code,
                flag: '--code <digits>',
                message: `Six-digit code e-mailed to ${address}:`,
                validate: (text) => (/^\d{6}$/.test(text.trim()) ? true : 'six digits')
            });
            const pair = await api.auth.verifyEmail({ email: address, otp: code.trim() }).catch(async (err: unknown) => {
                const { BadRequestError, AuthenticationError } = await import('@flowctl/sdk');
                if (err instanceof BadRequestError || err instanceof AuthenticationError) {
                    throw new CliError(`the code was not accepted: ${message((err as Error).message)}`, EXIT.failed, `check the latest e-mail, or get a new code: ${flowctlCommand(c, `verify --email ${address} --resend`)}`);
                }

                throw err;
            });
            if (pair.passwordSetupRequired) {
                // Saved first: setting the password uses this session.
                updateProfile(c.profile, { apiUrl: apiUrlOf(c), email: address, accessToken: pair.accessToken, refreshToken: pair.refreshToken }, c.io.env);
                await setUpPassword(c, address, piped);
            }

            signedIn(c, address, pair, 'verified and signed in as', pair.passwordSetupRequired ? { passwordSet: true } : {});
        });

    program
        .command('set-password')
        .description('set your account password (needs a sign-in of the last 10 minutes; every other session is signed out)')
        .option('--password-stdin', 'read the new password from stdin (for scripts)')
        .addHelpText('after', examples('flowctl set-password', 'printf %s "$PASSWORD" | flowctl set-password --password-stdin'))
        .action(async (opts: { passwordStdin?: boolean }) => {
            const c = ctx();
            await setPassword(c, await password(c, opts.passwordStdin, `New password (at least ${MIN_PASSWORD} characters):`));
        });

    program
        .command('reset-password')
        .description('reset a forgotten password: a six-digit code is e-mailed, then entered with a new password (every session is signed out)')
        .option('--email <address>', 'the account e-mail address')
        .option('--code <digits>', 'the code from the reset e-mail (without it, a code is e-mailed first)')
        .option('--password-stdin', 'read the new password from stdin (for scripts)')
        .addHelpText(
            'after',
            examples('flowctl reset-password --email me@example.com', 'printf %s "$PASSWORD" | flowctl reset-password --email me@example.com --code <code> --password-stdin')
        )
        .action(async (opts: { email?: string; code?: string; passwordStdin?: boolean }) => {
            const c = ctx();
            const address = await email(c, opts.email);
            const api = await anonymousClient(c);
            // Read up front: stdin can be read once.
            const piped = opts.passwordStdin ? await password(c, true, '') : undefined;
            if (opts.code === undefined) {
                await api.auth.forgotPassword({ email: address }).catch(async (err: unknown) => {
                    const { RateLimitError } = await import('@flowctl/sdk');
                    if (err instanceof RateLimitError) {
                        throw new CliError(
                            `no reset code was sent: one was asked for ${address} less than a minute ago`,
                            EXIT.failed,
                            `try again in ${err.retryAfter ?? 60} s, or enter the code already sent: ${flowctlCommand(c, `reset-password --email ${address} --code <code>`)}`,
                            { retryAfter: err.retryAfter ?? 60 }
                        );
                    }

                    throw err;
                });
                const sent = `if ${address} has an account, a reset code is on its way`;
                if (!canPrompt(c.io)) {
                    emit(c.io, { email: address, codeSent: true }, () => [`${green(c.io, '✓')} ${sent}`, `next: ${flowctlCommand(c, `reset-password --email ${address} --code <code>`)}`]);
                    return;
                }

                note(c.io, sent);
            }

            const code = await ask(c.io, {
                value: opts.code,
                flag: '--code <digits>',
                message: `Six-digit reset code e-mailed to ${address}:`,
                validate: (text) => (/^\d{6}$/.test(text.trim()) ? true : 'six digits')
            });
            const newPassword = piped ?? (await password(c, false, `New password (at least ${MIN_PASSWORD} characters):`));
            await api.auth.resetPassword({ email: address, otp: code.trim(), newPassword }).catch(async (err: unknown) => {
                const { BadRequestError } = await import('@flowctl/sdk');
                if (err instanceof BadRequestError) {
                    throw new CliError(`the password was not reset: ${message(err.message)}`, EXIT.failed, `check the latest reset e-mail, or get a new code: ${flowctlCommand(c, `reset-password --email ${address}`)}`);
                }

                throw err;
            });
            emit(c.io, { email: address, passwordReset: true }, () => [
                `${green(c.io, '✓')} password reset for ${address}: every session of the account was signed out`,
                `next: ${flowctlCommand(c, `login --email ${address}`)}`
            ]);
        });

    program
        .command('login')
        .description('sign in with your e-mail address and password')
        .option('--email <address>', 'the account e-mail address')
        .option('--password-stdin', 'read the password from stdin (for scripts)')
        .addHelpText('after', examples('flowctl login', 'printf %s "$PASSWORD" | flowctl login --email me@example.com --password-stdin', 'flowctl login --profile staging --api-url https://flowctl.example.com'))
        .action(async (opts: { email?: string; passwordStdin?: boolean }) => {
            const c = ctx();
            const address = await email(c, opts.email);
            const secret = await password(c, opts.passwordStdin, 'Password:');
            const api = await anonymousClient(c);
            const pair = await api.auth.login({ email: address, password: secret }).catch(async (err: unknown) => {
                const { PermissionDeniedError, AuthenticationError } = await import('@flowctl/sdk');
                if (err instanceof PermissionDeniedError && /no password yet/.test(err.message)) {
                    throw new CliError(
                        `${address} has no password yet: more than one sign-up of it was pending when it was verified`,
                        EXIT.auth,
                        `within 10 minutes of verifying: ${flowctlCommand(c, 'set-password')}; otherwise reset it: ${flowctlCommand(c, `reset-password --email ${address}`)}`
                    );
                }

                if (err instanceof PermissionDeniedError) {
                    throw new CliError(`${address} is not verified yet`, EXIT.auth, `verify it: ${flowctlCommand(c, `verify --email ${address}`)} (a new code: add --resend)`);
                }

                if (err instanceof AuthenticationError) {
                    throw new CliError(`wrong e-mail address or password for ${address}`, EXIT.auth, `try again: ${flowctlCommand(c, `login --email ${address}`)} (no account yet? ${flowctlCommand(c, 'register')})`);
                }

                throw err;
            });
            signedIn(c, address, pair, 'signed in as');
        });

    program
        .command('logout')
        .description('sign out: revoke the saved session and forget it')
        .addHelpText('after', examples('flowctl logout', 'flowctl logout --profile staging'))
        .action(async () => {
            const c = ctx();
            const profile = readProfile(c.profile, c.io.env);
            const apiUrl = apiUrlOf(c);
            if (profile.refreshToken && !tokensBelongTo(profile, apiUrl)) {
                // The saved sign-in is another server's: nothing of it is sent here, and it stays.
                emit(c.io, { profile: c.profile, signedOut: false, revoked: false }, () => `not signed in to ${apiUrl}: nothing to do (the saved sign-in is for ${profile.apiUrl})`);
                return;
            }

            let revoked = false;
            if (profile.refreshToken) {
                try {
                    const { Flowctl } = await import('@flowctl/sdk');
                    await new Flowctl({ baseUrl: apiUrl, accessToken: profile.accessToken, refreshToken: profile.refreshToken }).auth.logout();
                    revoked = true;
                } catch {
                    // Forgetting the tokens locally is what the user asked for; a server that cannot be
                    // reached or has no logout route does not stop that.
                }
            }

            updateProfile(c.profile, { accessToken: undefined, refreshToken: undefined }, c.io.env);
            emit(c.io, { profile: c.profile, signedOut: true, revoked }, () =>
                profile.refreshToken ? `${green(c.io, '✓')} signed out${profile.email ? ` ${profile.email}` : ''}${revoked ? '' : ' (forgotten here; the server could not be told)'}` : 'not signed in: nothing to do'
            );
            if (c.io.env.FLOWCTL_TOKEN) {
                note(c.io, 'note: FLOWCTL_TOKEN is still set: unset it to stop using that token');
            }
        });

    program
        .command('whoami')
        .description('show the signed-in account and server')
        .addHelpText('after', examples('flowctl whoami', 'flowctl whoami --json'))
        .action(async () => {
            const c = ctx();
            const api = await client(c);
            const account = await api.auth.me();
            const apiUrl = apiUrlOf(c);
            const source = credentialSource(c);
            emit(c.io, { apiUrl, profile: c.profile, credentials: source, account }, () =>
                `${inline(`${account.email}${account.fullName ? ` (${account.fullName})` : ''}`)} on ${apiUrl} · ${source === 'FLOWCTL_TOKEN' ? 'FLOWCTL_TOKEN' : `profile ${c.profile}`}`
            );
        });
};
