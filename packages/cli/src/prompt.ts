// Missing values are asked for on a terminal, and only there: without one, the error names the flag.
import type { Io } from './io.js';
import { CliError, EXIT, usageError } from './errors.js';

export interface Ask {
    value: string | undefined;
    /** The flag that gives the value, e.g. `--email <address>`. */
    flag: string;
    message: string;
    secret?: boolean;
    validate?: (value: string) => true | string;
}

export const canPrompt = (io: Io): boolean => io.stdinTty && io.stderrTty;

export const ask = async (io: Io, question: Ask): Promise<string> => {
    if (question.value !== undefined && question.value !== '') {
        return question.value;
    }

    if (!canPrompt(io)) {
        throw usageError(`missing ${question.flag.split(' ')[0]} (there is no terminal to ask on)`, `pass ${question.flag}`);
    }

    const prompts = await import('@inquirer/prompts');
    const context = { output: process.stderr };
    const validate = (value: string) => (value.trim() === '' ? 'required' : (question.validate?.(value) ?? true));
    try {
        return question.secret
            ? await prompts.password({ message: question.message, validate }, context)
            : (await prompts.input({ message: question.message, validate }, context)).trim();
    } catch (err) {
        if ((err as Error).name === 'ExitPromptError') {
            throw new CliError('cancelled', EXIT.interrupted);
        }

        throw err;
    }
};

/** Everything on stdin, without its final newline: for `--password-stdin` and friends. */
export const readStdin = async (io: Io, flag: string): Promise<string> => {
    if (io.stdinTty) {
        throw usageError(`${flag} reads the secret from a pipe, not from the terminal`, `e.g. \`printf %s "$SECRET" | flowctl … ${flag}\`, or leave ${flag} out to be asked`);
    }

    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk as Buffer);
    }

    const value = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
    if (value === '') {
        throw usageError(`${flag}: stdin was empty`, `pipe the value in: \`printf %s "$SECRET" | flowctl … ${flag}\``);
    }

    return value;
};
