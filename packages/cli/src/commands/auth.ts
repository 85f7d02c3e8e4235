// register, verify, login, logout, whoami.
import { anonymousClient, apiUrlOf, client, credentialSource } from '../client.js';
import type { Ctx, Register } from '../context.js';
import { readProfile, updateProfile } from '../credentials.js';
import { CliError, EXIT } from '../errors.js';
import { emit, green, note } from '../io.js';
import { ask, readStdin } from '../prompt.js';
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

const signedIn = (ctx: Ctx, address: string, pair: { accessToken: string; refreshToken: string }, verb: string) => {
    const apiUrl = apiUrlOf(ctx);
    updateProfile(ctx.profile, { apiUrl, email: address, accessToken: pair.accessToken, refreshToken: pair.refreshToken }, ctx.io.env);
    emit(ctx.io, { email: address, apiUrl, profile: ctx.profile, signedIn: true }, () => `${green(ctx.io, '✓')} ${verb} ${address} on ${apiUrl}`);
    if (ctx.io.env.FLOWCTL_TOKEN) {
        note(ctx.io, 'note: FLOWCTL_TOKEN is set and is used instead of this sign-in while it is');
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
            updateProfile(c.profile, { apiUrl: apiUrlOf(c), email: address }, c.io.env);
            emit(c.io, { email: address, message: answer.message }, () => [
                `${green(c.io, '✓')} registered ${address}: a six-digit code is on its way there`,
                `next: flowctl verify --email ${address} --code <code>`
            ]);
        });

    program
        .command('verify')
        .description('verify your e-mail address with the code you received, and sign in')
        .option('--email <address>', 'the address you registered (default: the last one registered with this profile)')
        .option('--code <digits>', 'the six-digit code from the e-mail')
        .option('--resend', 'e-mail a new code instead (one a minute)')
        .addHelpText('after', examples('flowctl verify --email me@example.com --code 123456', 'flowctl verify --email me@example.com --resend'))
        .action(async (opts: { email?: string; code?: string; resend?: boolean }) => {
            const c = ctx();
            const address = await email(c, opts.email);
            const api = await anonymousClient(c);
            if (opts.resend) {
                await api.auth.resendOtp({ email: address });
                emit(c.io, { email: address, resent: true }, () => [`${green(c.io, '✓')} a new code is on its way to ${address}`, `next: flowctl verify --email ${address} --code <code>`]);
                return;
            }

            const code = await ask(c.io, {
                value: opts.code,
                flag: '--code <digits>',
                message: `Six-digit code e-mailed to ${address}:`,
                validate: (text) => (/^\d{6}$/.test(text.trim()) ? true : 'six digits')
            });
            const pair = await api.auth.verifyEmail({ email: address, otp: code.trim() }).catch(async (err: unknown) => {
                const { BadRequestError, AuthenticationError } = await import('@flowctl/sdk');
                if (err instanceof BadRequestError || err instanceof AuthenticationError) {
                    throw new CliError(`the code was not accepted: ${(err as Error).message}`, EXIT.failed, `check the latest e-mail, or get a new code: flowctl verify --email ${address} --resend`);
                }

                throw err;
            });
            signedIn(c, address, pair, 'verified and signed in as');
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
                if (err instanceof PermissionDeniedError) {
                    throw new CliError(`${address} is not verified yet`, EXIT.auth, `verify it: flowctl verify --email ${address} (a new code: add --resend)`);
                }

                if (err instanceof AuthenticationError) {
                    throw new CliError(`wrong e-mail address or password for ${address}`, EXIT.auth, 'try again: flowctl login (no account yet? flowctl register)');
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
            let revoked = false;
            if (profile.refreshToken) {
                try {
                    const { Flowctl } = await import('@flowctl/sdk');
                    await new Flowctl({ baseUrl: apiUrlOf(c), accessToken: profile.accessToken, refreshToken: profile.refreshToken }).auth.logout();
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
                `${account.email}${account.fullName ? ` (${account.fullName})` : ''} on ${apiUrl} · ${source === 'FLOWCTL_TOKEN' ? 'FLOWCTL_TOKEN' : `profile ${c.profile}`}`
            );
        });
};
