// The command tree. Command modules are small and import nothing heavy at load time, so `--help`
// stays fast; the SDK, prompts, spinner, YAML parser and engine are imported inside actions.
import { Command, CommanderError, Option } from 'commander';

import * as auth from './commands/auth.js';
import * as diff from './commands/diff.js';
import * as google from './commands/google.js';
import * as preview from './commands/preview.js';
import * as runs from './commands/runs.js';
import * as settings from './commands/settings.js';
import * as suppressions from './commands/suppressions.js';
import * as tokens from './commands/tokens.js';
import * as uploads from './commands/uploads.js';
import * as workflows from './commands/workflows.js';
import type { Ctx } from './context.js';
import { examples } from './commands/help.js';
import { CliError, EXIT } from './errors.js';
import { createIo, type Format, type Io, reportError } from './io.js';
import { sameTargetFlags } from './next-command.js';
import { toCliError } from './sdk-errors.js';

const buildProgram = (version: string, io: Io, state: { ctx?: Ctx }): Command => {
    const program = new Command('flowctl')
        .description('Sign in, upload CSVs, apply YAML workflows, and run and watch them: at a terminal or in CI.')
        .version(version, '-V, --version', 'print the version')
        .addOption(new Option('--json', 'print one JSON document on stdout and nothing else'))
        .addOption(new Option('-o, --output <format>', 'json: as --json; yaml: the same document as YAML').choices(['json', 'yaml']))
        .addOption(new Option('--api-url <url>', 'the flowctl server (default: the profile\'s, FLOWCTL_API_URL, or http://127.0.0.1:3000)'))
        .addOption(new Option('--profile <name>', 'which saved sign-in to use').env('FLOWCTL_PROFILE').default('default'))
        .showHelpAfterError('(run the command with --help for usage)')
        // Every subcommand's --help also lists --json, --api-url and --profile (copied to each subcommand).
        .configureHelp({ showGlobalOptions: true })
        .exitOverride()
        .configureOutput({ writeErr: (text) => io.err(text.trimEnd()), writeOut: (text) => process.stdout.write(text) })
        .addHelpText(
            'after',
            `
Environment:
  FLOWCTL_API_URL   the server, over the profile's (an explicit --api-url wins)
  FLOWCTL_TOKEN     a personal API token (flowctl tokens create), over any saved sign-in: for CI
  FLOWCTL_PROFILE   the saved sign-in to use when --profile is not given (default: default)
  NO_COLOR          no colours

Workflows are named by id (wf_…) or by their whole name, exactly as written (quote it).

Exit codes: 0 success · 1 the run ended FAILED or CANCELLED, or a request failed · 2 usage error ·
3 not signed in or token rejected · 4 --watch timed out · 130 interrupted (Ctrl-C)
${examples('flowctl preview -f examples/workflows/newsletter.yaml', 'flowctl apply -f examples/workflows/', 'flowctl run "Newsletter to subscribers over 30" --watch', 'flowctl runs list')}`
        );

    const ctx = (): Ctx => {
        if (!state.ctx) {
            const opts = program.opts<{ apiUrl?: string; profile: string }>();
            state.ctx = { io, profile: opts.profile, apiUrlFlag: opts.apiUrl, exitCode: EXIT.ok };
        }

        return state.ctx;
    };

    for (const module of [auth, tokens, uploads, workflows, diff, preview, runs, settings, google, suppressions]) {
        module.register(program, ctx);
    }

    return program;
};

/** `--json`, `-o json|yaml`, `--output=yaml`, `-oyaml`: read before parsing, as errors of parsing need it too. */
export const outputFormat = (argv: string[]): Format | null => {
    let format: Format | null = null;
    argv.forEach((arg, i) => {
        const value = arg === '-o' || arg === '--output' ? argv[i + 1] : /^(?:--output=|-o)(.+)$/.exec(arg)?.[1];
        if (value === 'json' || value === 'yaml') {
            format = value;
        }
    });
    return argv.includes('--json') ? 'json' : format;
};

/** The flags for commands named in an error; none when they cannot be known (the error may be an unreadable credentials file). */
const targetFlags = (ctx: Ctx | undefined): string[] => {
    try {
        return sameTargetFlags(ctx);
    } catch {
        return [];
    }
};

export const main = async (argv: string[], version: string): Promise<number> => {
    const format = outputFormat(argv);
    const yaml = format === 'yaml' ? (await import('yaml')).stringify : undefined;
    const io = createIo(format, process.env, yaml ? (value) => yaml(value, { lineWidth: 0 }) : undefined);
    const state: { ctx?: Ctx } = {};
    const program = buildProgram(version, io, state);
    try {
        await program.parseAsync(argv, { from: 'user' });
        return state.ctx?.exitCode ?? EXIT.ok;
    } catch (err) {
        if (err instanceof CommanderError) {
            if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
                return EXIT.ok;
            }

            if (io.json) {
                io.out(io.doc({ error: { message: err.message.replace(/^error: /, ''), exitCode: EXIT.usage } }));
            }

            return EXIT.usage;
        }

        const error = err instanceof CliError ? err : await toCliError(err, state.ctx);
        reportError(io, error, targetFlags(state.ctx));
        return error.exitCode;
    }
};
