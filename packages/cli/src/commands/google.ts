// google status|connect|disconnect.
import { client } from '../client.js';
import type { Ctx, Register } from '../context.js';
import { emit, green, note } from '../io.js';
import { inline } from '../visible.js';
import { flowctlCommand } from '../next-command.js';
import { examples } from './help.js';

/** Opens `url` in a browser when this looks like a desktop session; says so when it did. */
const openBrowser = async (ctx: Ctx, url: string): Promise<boolean> => {
    const env = ctx.io.env;
    const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : env.DISPLAY || env.WAYLAND_DISPLAY ? 'xdg-open' : null;
    if (!command || !ctx.io.stdoutTty || env.CI) {
        return false;
    }

    try {
        const { spawn } = await import('node:child_process');
        spawn(command, [url], { stdio: 'ignore', detached: true }).on('error', () => {}).unref();
        return true;
    } catch {
        return false;
    }
};

export const register: Register = (program, ctx) => {
    const google = program.command('google').description('link a Google account, for DATA_SOURCE nodes that read Drive files')
        .addHelpText('after', examples('flowctl google status', 'flowctl google connect'));

    google
        .command('status')
        .description('is a Google account linked?')
        .addHelpText('after', examples('flowctl google status', 'flowctl google status -o json'))
        .action(async () => {
            const c = ctx();
            const api = await client(c);
            const status = await api.integrations.google.status();
            emit(c.io, status, () => (status.connected ? `${green(c.io, '✓')} linked to ${inline(String(status.email))}` : `not linked: ${flowctlCommand(c, 'google connect')}`));
        });

    google
        .command('connect')
        .description('print the consent URL, and open it in a browser when there is one')
        .option('--no-browser', 'only print the URL')
        .addHelpText('after', examples('flowctl google connect', 'flowctl google connect --no-browser'))
        .action(async (opts: { browser: boolean }) => {
            const c = ctx();
            const api = await client(c);
            const url = await api.integrations.google.connectUrl();
            const opened = opts.browser && (await openBrowser(c, url));
            emit(c.io, { url, opened }, () => url);
            if (!c.io.json) {
                note(c.io, `${opened ? 'opened in your browser; if not, open' : 'open'} the URL above, grant access, then check: ${flowctlCommand(c, 'google status')}`);
            }
        });

    google
        .command('disconnect')
        .description('unlink the Google account')
        .addHelpText('after', examples('flowctl google disconnect'))
        .action(async () => {
            const c = ctx();
            const api = await client(c);
            await api.integrations.google.disconnect();
            emit(c.io, { connected: false }, () => `${green(c.io, '✓')} Google account unlinked`);
        });
};
