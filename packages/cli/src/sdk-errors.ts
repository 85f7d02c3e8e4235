// SDK errors become CLI errors: an exit code and the next command to type.
import { apiUrlOf, credentialSource } from './client.js';
import type { Ctx } from './context.js';
import { DEFAULT_API_URL } from './credentials.js';
import { CliError, EXIT, notSignedIn } from './errors.js';
import { flowctlCommand } from './next-command.js';
import { inline, message as serverMessage } from './visible.js';

interface Detail {
    path?: string;
    message: string;
}

export const toCliError = async (err: unknown, ctx: Ctx | undefined): Promise<CliError> => {
    const sdk = await import('@flowctl/sdk').catch(() => null);
    if (!sdk || !(err instanceof sdk.FlowctlError)) {
        return new CliError((err as Error)?.message ?? String(err), EXIT.failed, 'this looks like a bug in flowctl: please report it with the command you ran');
    }

    if (err instanceof sdk.AuthenticationError) {
        if (ctx && credentialSource(ctx) === 'FLOWCTL_TOKEN') {
            return new CliError(`the server rejected FLOWCTL_TOKEN: ${serverMessage(err.message)}`, EXIT.auth, `create a new token with \`${flowctlCommand(ctx, 'tokens create')}\` and set FLOWCTL_TOKEN to it`);
        }

        return notSignedIn(`the server rejected the saved sign-in: ${serverMessage(err.message)}`, flowctlCommand(ctx, 'login'));
    }

    if (err instanceof sdk.ConnectionError) {
        const url = ctx ? apiUrlOf(ctx) : 'the server';
        return new CliError(
            // The SDK's message starts with the request (`POST /api/auth/login: …`): the user ran a command, not that.
            `cannot reach the flowctl server at ${url}: ${err.message.replace(/^(GET|POST|PUT|PATCH|DELETE) \S+: /, '')}`,
            EXIT.failed,
            `start it (\`${startCommand(ctx ? url : null)}\` in the repository) or point at yours with --api-url or FLOWCTL_API_URL`
        );
    }

    if (err instanceof sdk.RateLimitError) {
        return new CliError(serverMessage(err.message), EXIT.failed, `rate limited: try again${err.retryAfter ? ` in ${Math.ceil(err.retryAfter)} s` : ' shortly'}`);
    }

    // hapi's own answer for a path it has no route for: the server predates this command.
    if (err instanceof sdk.NotFoundError && err.message === 'Not Found') {
        return new CliError(
            `the server at ${ctx ? apiUrlOf(ctx) : 'this address'} does not offer this yet (no such endpoint)`,
            EXIT.failed,
            'upgrade the flowctl server, or check --api-url / FLOWCTL_API_URL'
        );
    }

    const details = Array.isArray(err.details) ? (err.details as Detail[]) : [];
    // The server's words are neutralised before the CLI lays them out (visible.ts): a detail is one line.
    const listed = details.filter((d) => d && typeof d.message === 'string');
    const repeated = listed.length > 0 && listed.every((d) => err.message.includes(`${d.path ? `${d.path}: ` : ''}${d.message}`));
    const lines = repeated ? [] : listed.map((d) => `  ${inline(`${d.path ? `${d.path}: ` : ''}${d.message}`)}`);
    const message = [serverMessage(err.message), ...lines].join('\n');
    return new CliError(message, EXIT.failed, serverHint(err, ctx), { ...(err.status ? { status: err.status } : {}) });
};

/**
 * The command that starts a server where this invocation looked for one: `npm start` listens on
 * DEFAULT_API_URL's port, so any other port is named (PORT=3731 npm start), or it would start elsewhere.
 */
const startCommand = (url: string | null): string => {
    const port = url ? new URL(url).port : '';
    return port && port !== new URL(DEFAULT_API_URL).port ? `PORT=${port} npm start` : 'npm start';
};

/**
 * What to do after a 5xx. A 503 is the server saying it cannot do this now or is not set up for it (its
 * message says which): not a failure to look for in its log.
 */
const serverHint = (err: { status?: number | undefined; requestId?: string | undefined; message: string }, ctx: Ctx | undefined): string | undefined => {
    if (err.status === 503) {
        return /not configured|set [A-Z_]+/.test(err.message)
            ? `the server at ${ctx ? apiUrlOf(ctx) : 'this address'} is not set up for this: its operator sets what the message names (docs/configuration.md)`
            : 'the server cannot do this right now: try again shortly';
    }

    return err.status !== undefined && err.status >= 500 ? `the server failed${err.requestId ? ` (request id ${err.requestId})` : ''}: see its log` : undefined;
};
