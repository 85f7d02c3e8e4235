// suppressions list|add|rm|import: the account's suppression list, the addresses no OUTPUT node mails.
import Fs from 'node:fs/promises';

import { client } from '../client.js';
import type { Register } from '../context.js';
import { CliError, EXIT, usageError } from '../errors.js';
import { emit, green, note, table } from '../io.js';
import { allOf, orNotFound } from '../resolve.js';
import { type BadLine, MAX_LISTED, scanSuppressionFile } from '../suppression-file.js';
import { inline } from '../visible.js';
import { flowctlCommand } from '../next-command.js';
import { examples } from './help.js';

/** Addresses per request: the server takes at most 5,000. */
const BATCH = 5000;

const describeBad = (bad: number, listed: BadLine[]): string[] => [
    ...listed.map((b) => `  line ${b.line}: ${inline(b.value)}: ${b.problem}`),
    ...(bad > listed.length ? [`  and ${bad - listed.length} more (only the first ${MAX_LISTED} are listed)`] : [])
];

export const register: Register = (program, ctx) => {
    const suppressions = program
        .command('suppressions')
        .alias('suppression')
        .description('the suppression list: addresses your workflows never e-mail (unsubscribed, bounced, complained, added by hand)')
        .addHelpText('after', examples('flowctl suppressions list', 'flowctl suppressions add ada@example.com'));

    suppressions
        .command('list')
        .alias('ls')
        .description('the list, newest first')
        .addHelpText('after', examples('flowctl suppressions list', 'flowctl suppressions list --json'))
        .action(async () => {
            const c = ctx();
            const api = await client(c);
            const all = await allOf(api.suppressions.list());
            emit(c.io, all, () =>
                all.length === 0
                    ? `the suppression list is empty: ${flowctlCommand(c, 'suppressions add <email…>')}`
                    : table([['EMAIL', 'REASON', 'WORKFLOW', 'SINCE'], ...all.map((s) => [s.email, s.reason, s.workflowId ?? '-', s.createdAt])])
            );
        });

    suppressions
        .command('add')
        .description('add addresses (reason manual); compared case-insensitively')
        .argument('<email...>')
        .addHelpText('after', examples('flowctl suppressions add ada@example.com bob@example.com'))
        .action(async (emails: string[]) => {
            const c = ctx();
            const { emailAddressProblem } = await import('@flowctl/engine');
            const bad = emails.flatMap((email, i) => {
                const problem = emailAddressProblem(email.trim());
                return problem === null ? [] : [`  argument ${i + 1}: ${inline(email)}: ${problem}`];
            });
            if (bad.length > 0) {
                throw usageError(`${bad.length} of ${emails.length} arguments are not e-mail addresses; none was added:\n${bad.join('\n')}`, `e.g. ${flowctlCommand(c, 'suppressions add ada@example.com')}`);
            }

            const api = await client(c);
            let added = 0;
            let alreadyPresent = 0;
            for (let i = 0; i < emails.length; i += BATCH) {
                const answer = await api.suppressions.add(emails.slice(i, i + BATCH));
                added += answer.added;
                alreadyPresent += answer.alreadyPresent;
            }

            emit(c.io, { added, alreadyPresent }, () => `${green(c.io, '✓')} ${added} added${alreadyPresent > 0 ? `, ${alreadyPresent} already on the list` : ''}`);
        });

    suppressions
        .command('rm')
        .alias('remove')
        .description('remove an address: your workflows e-mail it again')
        .argument('<email>')
        .addHelpText('after', examples('flowctl suppressions rm ada@example.com'))
        .action(async (email: string) => {
            const c = ctx();
            const api = await client(c);
            await orNotFound(api.suppressions.remove(email), `${email} is not on the suppression list`, `see the list: ${flowctlCommand(c, 'suppressions list')}`);
            emit(c.io, { removed: true, email }, () => `${green(c.io, '✓')} removed ${inline(email)}`);
        });

    suppressions
        .command('import')
        .description('add the addresses of a file: one per line, or a CSV with an email column')
        .argument('<file.csv>')
        .option('--all-or-nothing', 'add nothing when any line is not an e-mail address')
        .addHelpText('after', examples('flowctl suppressions import unsubscribed.csv', 'flowctl suppressions import list.txt --all-or-nothing --json'))
        .action(async (file: string, opts: { allOrNothing?: boolean }) => {
            const c = ctx();
            await Fs.access(file).catch(() => {
                throw usageError(`cannot read ${file}`, 'give the path of a CSV or text file, one address per line');
            });
            const { emailAddressProblem } = await import('@flowctl/engine');
            const problemOf = (value: string) => emailAddressProblem(value.trim());
            let checked: number | null = null;
            if (opts.allOrNothing) {
                // Checked whole before anything is sent, then read again to send: a pipe (/dev/stdin, a
                // FIFO) gives its lines to the first reading only, and the second would add nothing.
                if (!(await Fs.stat(file)).isFile()) {
                    throw usageError(`--all-or-nothing reads ${file} twice (to check every line, then to send them), and it is not a regular file`, 'save the addresses to a file first, or import without --all-or-nothing');
                }

                const dry = await scanSuppressionFile(file, BATCH, problemOf);
                if (dry.bad > 0) {
                    throw new CliError(
                        `${dry.bad} lines of ${file} are not e-mail addresses; with --all-or-nothing none was added:\n${describeBad(dry.bad, dry.listed).join('\n')}`,
                        EXIT.failed,
                        'fix those lines, or import without --all-or-nothing to add the good ones',
                        { invalid: dry.listed, invalidCount: dry.bad, added: 0 }
                    );
                }

                checked = dry.good;
            }

            const api = await client(c);
            let added = 0;
            let alreadyPresent = 0;
            const scan = await scanSuppressionFile(file, BATCH, problemOf, async (emails) => {
                const answer = await api.suppressions.add(emails);
                added += answer.added;
                alreadyPresent += answer.alreadyPresent;
                if (c.io.stderrTty && !c.io.json) {
                    note(c.io, `  ${added + alreadyPresent} addresses sent…`);
                }
            });
            const doc = { added, alreadyPresent, invalidCount: scan.bad, invalid: scan.listed };
            if (checked !== null && (scan.good !== checked || scan.bad > 0)) {
                throw new CliError(
                    `${file} changed while it was imported: ${checked} good lines were checked, ${scan.good} good and ${scan.bad} bad were read to send; ${added} added, ${alreadyPresent} already on the list`,
                    EXIT.failed,
                    'import the file again once nothing writes to it (addresses already added are counted as already on the list)',
                    doc
                );
            }

            if (scan.bad > 0) {
                note(c.io, `${scan.bad} lines were not e-mail addresses and were skipped:\n${describeBad(scan.bad, scan.listed).join('\n')}`);
                throw new CliError(`${added} added, ${alreadyPresent} already on the list; ${scan.bad} lines skipped`, EXIT.failed, 'fix the lines above and import the file again (addresses already added are counted as already on the list)', doc);
            }

            emit(c.io, doc, () => `${green(c.io, '✓')} ${added} added${alreadyPresent > 0 ? `, ${alreadyPresent} already on the list` : ''}`);
        });
};
