// tokens create|list|revoke: personal API tokens for programs and CI (FLOWCTL_TOKEN).
import { client } from '../client.js';
import type { Register } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { emit, green, note, table } from '../io.js';
import { allOf, orNotFound } from '../resolve.js';
import { examples } from './help.js';

export const register: Register = (program, ctx) => {
    const tokens = program.command('tokens').alias('token').description('personal API tokens, for CI and scripts (FLOWCTL_TOKEN)');

    tokens
        .command('create')
        .description('create a token; it is shown this once only')
        .requiredOption('--name <name>', 'what the token is for, e.g. "github actions"')
        .option('--expires-in-days <days>', 'lifetime in days (default: no expiry)')
        .addHelpText('after', examples('flowctl tokens create --name ci', 'flowctl tokens create --name ci --expires-in-days 90 --json | jq -r .token'))
        .action(async (opts: { name: string; expiresInDays?: string }) => {
            const c = ctx();
            const days = opts.expiresInDays === undefined ? undefined : Number(opts.expiresInDays);
            if (days !== undefined && (!Number.isInteger(days) || days < 1)) {
                throw new CliError(`--expires-in-days '${opts.expiresInDays}' is not a positive whole number`, EXIT.usage, 'e.g. --expires-in-days 90');
            }

            const api = await client(c);
            const created = await api.account.tokens.create({ name: opts.name, ...(days ? { expiresInDays: days } : {}) });
            emit(c.io, created, () => created.token);
            if (!c.io.json) {
                note(c.io, `${green(c.io, '✓')} token ${created.id} (${created.name}) created: copy it now, it is not shown again\n  use it: FLOWCTL_TOKEN=<token> flowctl whoami`);
            }
        });

    tokens
        .command('list')
        .alias('ls')
        .description('your tokens (never their secrets)')
        .action(async () => {
            const c = ctx();
            const api = await client(c);
            const all = await allOf(api.account.tokens.list());
            emit(c.io, all, () =>
                all.length === 0
                    ? 'no tokens: flowctl tokens create --name <what for>'
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
            await orNotFound(api.account.tokens.revoke(tokenId), `token '${tokenId}' not found`, 'see your tokens: flowctl tokens list');
            emit(c.io, { revoked: true, id: tokenId }, () => `${green(c.io, '✓')} revoked ${tokenId}`);
        });
};
