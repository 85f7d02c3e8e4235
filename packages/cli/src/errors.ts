// Exit codes and the one error type every command throws. Each error carries the next command to type.

export const EXIT = {
    ok: 0,
    /** The run ended FAILED or CANCELLED, or a request failed. */
    failed: 1,
    /** A bad flag, argument or input file: retrying the same command will not help. */
    usage: 2,
    /** Not signed in, or the token was rejected. */
    auth: 3,
    /** `--watch --timeout` elapsed before the run ended. */
    timeout: 4,
    /** Ctrl-C, as shells report a SIGINT. */
    interrupted: 130
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
    constructor(
        message: string,
        readonly exitCode: ExitCode = EXIT.failed,
        /** What to do next, e.g. "run `flowctl login`". */
        readonly hint?: string,
        /** Extra fields for the --json error document. */
        readonly details?: Record<string, unknown>,
        /** How the message is labelled; by default "usage error" for EXIT.usage, else "error". */
        readonly label?: string
    ) {
        super(message);
    }
}

export const usageError = (message: string, hint?: string): CliError => new CliError(message, EXIT.usage, hint);

/** `login`: the command that signs this invocation's profile in to its server (next-command.ts). */
export const notSignedIn = (why: string, login: string): CliError =>
    new CliError(why, EXIT.auth, `run \`${login}\` (or set FLOWCTL_TOKEN to a personal API token)`);
