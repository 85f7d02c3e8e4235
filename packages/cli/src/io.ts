// Where output goes. stdout carries the command's answer (one JSON document with --json);
// stderr carries progress and errors, and spinners only when stderr is a terminal.
import { cliWording } from './cli-wording.js';
import { EXIT, type CliError } from './errors.js';
import { inline, visible } from './visible.js';

/** `--json` or `-o json`: one JSON document; `-o yaml`: the same document as YAML. */
export type Format = 'json' | 'yaml';

export interface Io {
    /** A machine-readable answer (JSON or YAML) instead of the human text. */
    json: boolean;
    format: Format | null;
    /** The document in this invocation's format (JSON unless `-o yaml`). */
    doc(value: unknown): string;
    stdinTty: boolean;
    stdoutTty: boolean;
    stderrTty: boolean;
    color: boolean;
    /** GITHUB_ACTIONS=true: failures also become `::error::` workflow commands. */
    githubActions: boolean;
    env: NodeJS.ProcessEnv;
    out(text: string): void;
    err(text: string): void;
}

const colorWanted = (env: NodeJS.ProcessEnv, tty: boolean): boolean =>
    tty && env.NO_COLOR === undefined && env.TERM !== 'dumb' && env.FORCE_COLOR !== '0';

const line = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

/** The YAML writer, loaded by main only when `-o yaml` asks for it (keeps `--help` fast). */
export type YamlStringify = (value: unknown) => string;

export const createIo = (format: Format | null | boolean, env: NodeJS.ProcessEnv = process.env, yaml?: YamlStringify): Io => {
    const chosen: Format | null = format === true ? 'json' : format === false ? null : format;
    const json = chosen !== null;
    return {
    json,
    format: chosen,
    doc: (value) => (chosen === 'yaml' && yaml ? yaml(value) : JSON.stringify(value, null, 2)),
    stdinTty: Boolean(process.stdin.isTTY),
    stdoutTty: Boolean(process.stdout.isTTY),
    stderrTty: Boolean(process.stderr.isTTY),
    color: colorWanted(env, Boolean(process.stderr.isTTY)),
    githubActions: env.GITHUB_ACTIONS === 'true',
    env,
    // Human text may carry a server's words: shown, never obeyed (visible.ts). JSON escapes them itself.
    out: (text) => process.stdout.write(line(json ? text : visible(text))),
    err: (text) => process.stderr.write(line(visible(text)))
    };
};

const paint = (io: Io, code: number, text: string): string => (io.color ? `\u001b[${code}m${text}\u001b[0m` : text);
export const green = (io: Io, text: string) => paint(io, 32, text);
export const red = (io: Io, text: string) => paint(io, 31, text);
export const dim = (io: Io, text: string) => paint(io, 2, text);
export const bold = (io: Io, text: string) => paint(io, 1, text);

/** The command's answer: the JSON document with --json, else the human text. */
export const emit = (io: Io, doc: unknown, human: () => string | string[]): void => {
    if (io.json) {
        io.out(io.doc(doc));
        return;
    }

    const text = human();
    const lines = Array.isArray(text) ? text : [text];
    if (lines.length > 0) {
        io.out(lines.join('\n'));
    }
};

/** A note for a person (stderr, never with --json on stdout). */
export const note = (io: Io, text: string): void => {
    io.err(text);
};

/**
 * Every error goes out here; server text in it names CLI commands, not API routes (see cli-wording.ts),
 * each with `flags`: those that make it act on this invocation's profile and server (next-command.ts).
 */
export const reportError = (io: Io, error: CliError, flags: string[] = []): void => {
    const message = cliWording(error.message, flags);
    const hint = error.hint ? cliWording(error.hint, flags) : undefined;
    if (io.json) {
        io.out(io.doc({ error: { message, exitCode: error.exitCode, ...(hint ? { hint } : {}), ...error.details } }));
    }

    const label = error.label ?? (error.exitCode === EXIT.usage ? 'usage error' : 'error');
    io.err(`${red(io, `${label}:`)} ${message}${hint ? `\n${dim(io, `  → ${hint}`)}` : ''}`);
};

/** Columns padded to their widest cell, for lists. Cells are data: a newline or escape in one is shown (`inline`). */
export const table = (data: string[][]): string[] => {
    const rows = data.map((row) => row.map(inline));
    const widths: number[] = [];
    for (const row of rows) {
        row.forEach((cell, i) => {
            widths[i] = Math.max(widths[i] ?? 0, cell.length);
        });
    }

    return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
};
