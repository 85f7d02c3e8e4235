// tokens create|list|revoke: personal API tokens for programs and CI (FLOWCTL_TOKEN).
import { client } from '../client.js';
import type { Register } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { emit, green, note, table } from '../io.js';
import { ask, canPrompt, readStdin } from '../prompt.js';
import { allOf, orNotFound } from '../resolve.js';
import { inline, message } from '../visible.js';
import { flowctlCommand } from '../next-command.js';
import { examples } from './help.js';

// The server's rule: every token expires (POST /api/account/tokens).
const DEFAULT_DAYS = 90;
const MAX_DAYS = 365;

export const register: Register = (program, ctx) => {
    const tokens = program.command('tokens').alias('token').description('personal API tokens, for CI and scripts (FLOWCTL_TOKEN)')
        .addHelpText('after', examples('flowctl tokens create --name ci', 'flowctl tokens list'));

    tokens
        .command('create')
        .description('create a token; it is shown this once only')
        .requiredOption('--name <name>', 'what the token is for, e.g. "github actions"')
        .option('--expires-in-days <days>', `lifetime in days (default ${DEFAULT_DAYS}, at most ${MAX_DAYS})`)
        .option('--password-stdin', 'read your password from stdin: needed when you signed in more than 10 minutes ago')
        .addHelpText(
            'after',
            examples('flowctl tokens create --name ci', 'flowctl tokens create --name ci --expires-in-days 30 --json', 'printf %s "$PASSWORD" | flowctl tokens create --name ci --password-stdin')
        )
        .action(async (opts: { name: string; expiresInDays?: string; passwordStdin?: boolean }) => {
            const c = ctx();
            const days = opts.expiresInDays === undefined ? undefined : Number(opts.expiresInDays);
            if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)) {
                throw new CliError(`--expires-in-days '${opts.expiresInDays}' is not a whole number from 1 to ${MAX_DAYS}`, EXIT.usage, 'e.g. --expires-in-days 90');
            }

            const password = opts.passwordStdin ? await readStdin(c.io, '--password-stdin') : undefined;
            const api = await client(c);
            const params = { name: opts.name, ...(days ? { expiresInDays: days } : {}) };
            const created = await api.account.tokens.create({ ...params, ...(password === undefined ? {} : { password }) }).catch(async (err: unknown) => {
                const { PermissionDeniedError } = await import('@flowctl/sdk');
                // A token outlives the session: the server wants a recent sign-in, or the password again.
                if (!(err instanceof PermissionDeniedError) || !/last 10 minutes|password is wrong/.test(err.message) || !canPrompt(c.io) || password !== undefined) {
                    if (err instanceof PermissionDeniedError && /last 10 minutes|password is wrong/.test(err.message)) {
                        throw new CliError(`the token was not created: ${message(err.message)}`, EXIT.auth, `give your password: printf %s "$PASSWORD" | ${flowctlCommand(c, 'tokens create --name … --password-stdin')}, or ${flowctlCommand(c, 'login')} first`);
                    }

                    throw err;
                }

                const again = await ask(c.io, { value: undefined, flag: '--password-stdin', message: 'You signed in more than 10 minutes ago: your password:', secret: true });
                return api.account.tokens.create({ ...params, password: again });
            });
            emit(c.io, created, () => created.token);
            if (!c.io.json) {
                note(c.io, `${green(c.io, '✓')} token ${inline(created.id)} (${inline(created.name)}) created: copy it now, it is not shown again\n  use it: FLOWCTL_TOKEN=<token> ${flowctlCommand(c, 'whoami')}`);
            }
        });

    tokens
        .command('list')
        .alias('ls')
        .description('your tokens (never their secrets)')
        .addHelpText('after', examples('flowctl tokens list', 'flowctl tokens list -o json'))
        .action(async () => {
            const c = ctx();
            const api = await client(c);
            const all = await allOf(api.account.tokens.list());
            emit(c.io, all, () =>
                all.length === 0
                    ? `no tokens: ${flowctlCommand(c, 'tokens create --name <what for>')}`
                    : table([['ID', 'NAME', 'CREATED', 'LAST USED', 'EXPIRES'], ...all.map((t) => [t.id, t.name, t.createdAt, t.lastUsedAt ?? '-', t.expiresAt ?? 'never'])])
            );
        });

    tokens
        .command('revoke')
        .alias('rm')
        .description('revoke a token: it stops working at once')
        .argument('<tokenId>')
        .addHelpText('after', examples('flowctl tokens revoke tok_abc'))
        .action(async (tokenId: string) => {
            const c = ctx();
            const api = await client(c);
            await orNotFound(api.account.tokens.revoke(tokenId), `token '${tokenId}' not found`, `see your tokens: ${flowctlCommand(c, 'tokens list')}`);
            emit(c.io, { revoked: true, id: tokenId }, () => `${green(c.io, '✓')} revoked ${tokenId}`);
        });
};
