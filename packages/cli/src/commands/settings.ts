// settings, settings ai set.
import { client } from '../client.js';
import type { Ctx, Register } from '../context.js';
import { usageError } from '../errors.js';
import type { Settings } from '@flowctl/sdk';

import { emit, green, table } from '../io.js';
import { readStdin } from '../prompt.js';
import { flowctlCommand } from '../next-command.js';
import { examples } from './help.js';

const setKey = (ctx: Ctx): string => `printf %s "$OPENAI_API_KEY" | ${flowctlCommand(ctx, 'settings ai set --api-key-stdin')}`;

/** Whose key AI nodes use, in words: the server's own key is said, as its owner pays for those calls. */
const keyLine = (ctx: Ctx, ai: Settings['ai']): string => {
    if (ai.keyInUse === 'account') {
        return `yours${ai.apiKeyLast4 ? ` (…${ai.apiKeyLast4})` : ''}`;
    }

    return ai.keyInUse === 'server' ? `the server's own (its OPENAI_API_KEY): you set none; set yours: ${setKey(ctx)}` : `none: AI nodes fail until you set one: ${setKey(ctx)}`;
};

export const register: Register = (program, ctx) => {
    const settings = program.command('settings').description('account settings: the AI key, model and endpoint')
        .addHelpText('after', examples('flowctl settings get', 'flowctl settings ai set --model gpt-4o-mini'));

    settings
        .command('get')
        .description('show the settings (the AI key only as its last four characters)')
        .addHelpText('after', examples('flowctl settings get', 'flowctl settings get -o json'))
        .action(async () => {
            const c = ctx();
            const api = await client(c);
            const current = await api.account.settings.get();
            const { ai } = current;
            emit(c.io, current, () =>
                table([
                    ['AI key', keyLine(c, ai)],
                    ['AI model', ai.model ?? "the server's default"],
                    ['AI base URL', ai.baseUrl ?? "the server's default"],
                    ['AI concurrency', ai.concurrency === null ? "the server's AI_CONCURRENCY" : String(ai.concurrency)]
                ])
            );
        });

    settings
        .command('ai')
        .description('the language-model settings used by AI nodes')
        .addHelpText('after', examples('flowctl settings ai set --model gpt-4o-mini'))
        .command('set')
        .description('set the AI model, API key (from stdin) or OpenAI-compatible base URL')
        .option('--model <name>', 'e.g. gpt-4o-mini')
        .option('--api-key-stdin', 'read the API key from stdin')
        .option('--base-url <url>', 'an OpenAI-compatible endpoint')
        .option('--concurrency <n>', "model calls in flight per AI node at most (below the server's AI_CONCURRENCY)")
        .addHelpText('after', examples('printf %s "$OPENAI_API_KEY" | flowctl settings ai set --model gpt-4o-mini --api-key-stdin', 'flowctl settings ai set --base-url https://api.openai.com/v1'))
        .action(async (opts: { model?: string; apiKeyStdin?: boolean; baseUrl?: string; concurrency?: string }) => {
            const c = ctx();
            if (!opts.model && !opts.apiKeyStdin && !opts.baseUrl && opts.concurrency === undefined) {
                throw usageError('nothing to set', 'pass --model, --api-key-stdin, --base-url or --concurrency');
            }

            const concurrency = opts.concurrency === undefined ? undefined : Number(opts.concurrency);
            if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) {
                throw usageError(`--concurrency must be a whole number of at least 1, got '${opts.concurrency}'`, 'e.g. --concurrency 4');
            }

            const ai = {
                ...(opts.model ? { model: opts.model } : {}),
                ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
                ...(concurrency === undefined ? {} : { concurrency }),
                ...(opts.apiKeyStdin ? { apiKey: await readStdin(c.io, '--api-key-stdin') } : {})
            };
            const api = await client(c);
            const updated = await api.account.settings.update({ ai });
            emit(c.io, updated, () => `${green(c.io, '✓')} AI settings saved: ${Object.keys(ai).join(', ')}`);
        });
};
