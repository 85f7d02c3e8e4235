import type { Command } from 'commander';

import type { ExitCode } from './errors.js';
import type { Io } from './io.js';

/** What every action gets: where to write, which profile and server, and the exit code to end with. */
export interface Ctx {
    io: Io;
    profile: string;
    apiUrlFlag: string | undefined;
    /** Set by an action that succeeded as a command but reports a failed outcome (a FAILED run). */
    exitCode: ExitCode;
}

export type Register = (program: Command, ctx: () => Ctx) => void;
