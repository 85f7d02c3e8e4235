// workflows history and workflows rollback: a workflow's revisions, and making it an earlier one again.
import type { Command } from 'commander';

import { client } from '../client.js';
import type { Ctx } from '../context.js';
import { CliError, EXIT, usageError } from '../errors.js';
import { emit, green, table } from '../io.js';
import { findWorkflow } from '../resolve.js';
import { inline } from '../visible.js';
import { flowctlCommand, shellWord } from '../next-command.js';
import { examples } from './help.js';

/** A revision number from a flag: a whole number from 1, else a usage error naming the flag. */
export const revisionNumber = (ctx: Ctx, flag: string, value: string, ref: string): number => {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
        throw usageError(`${flag} '${value}' is not a revision number (1, 2, …)`, `see the revisions: ${flowctlCommand(ctx, `workflows history ${shellWord(ref)}`)}`);
    }

    return n;
};

export const registerRevisions = (workflows: Command, ctx: () => Ctx): void => {
    workflows
        .command('history')
        .description('the revisions of a workflow, newest first, each with what it changed')
        .argument('<workflow>', 'its id, or its whole name (exact, case included)')
        .option('--limit <n>', 'at most this many', '20')
        .addHelpText('after', examples('flowctl workflows history "Newsletter to subscribers over 30"', 'flowctl workflows history wf_abc --limit 5 --json'))
        .action(async (ref: string, opts: { limit: string }) => {
            const c = ctx();
            const limit = Number(opts.limit);
            if (!Number.isInteger(limit) || limit < 1) {
                throw new CliError(`--limit '${opts.limit}' is not a positive whole number`, EXIT.usage, 'e.g. --limit 50');
            }

            const api = await client(c);
            const workflow = await findWorkflow(c, api, ref);
            const { describeChange } = await import('../revision-changes.js');
            // One more than shown: the oldest shown is described against the one before it.
            const entries = [];
            for await (const entry of api.workflows.revisions.list(workflow.id, { limit: Math.min(limit + 1, 500) })) {
                entries.push(entry);
                if (entries.length > limit) {
                    break;
                }
            }

            const revisions = await Promise.all(entries.map((entry) => api.workflows.revisions.get(workflow.id, entry.revision)));
            const history = revisions.slice(0, limit).map((revision, i) => {
                const before = revisions[i + 1];
                const change =
                    revision.revision === 1 ? 'created' : before && before.revision === revision.revision - 1 ? describeChange(before, revision) : 'earlier revisions are no longer kept';
                return { revision: revision.revision, name: revision.name, createdAt: revision.createdAt, current: revision.revision === workflow.revision, change };
            });

            emit(c.io, history, () => [
                ...table([
                    ['REVISION', 'CREATED', 'CHANGE'],
                    ...history.map((h) => [`${h.revision}${h.current ? ' (current)' : ''}`, h.createdAt, h.change])
                ]),
                `see one: ${flowctlCommand(c, `workflows get ${workflow.id} --revision <n> -o yaml`)} · go back: ${flowctlCommand(c, `workflows rollback ${workflow.id} --to <n>`)}`
            ]);
        });

    workflows
        .command('rollback')
        .description('make a workflow what it was at an earlier revision (as a new revision)')
        .argument('<workflow>', 'its id, or its whole name (exact, case included)')
        .requiredOption('--to <revision>', 'the revision to go back to (flowctl workflows history lists them)')
        .addHelpText('after', examples('flowctl workflows rollback "Newsletter to subscribers over 30" --to 1'))
        .action(async (ref: string, opts: { to: string }) => {
            const c = ctx();
            const to = revisionNumber(c, '--to', opts.to, ref);
            const api = await client(c);
            const workflow = await findWorkflow(c, api, ref);
            const target = await api.workflows.revisions.get(workflow.id, to);
            const { describeChange } = await import('../revision-changes.js');
            const change = describeChange(workflow, target);
            // Over the revision just read: a change made meanwhile is not undone unseen.
            const restored = await api.workflows.revisions.restore(workflow.id, to, { ifMatch: workflow.revision });
            const changed = restored.revision !== workflow.revision;
            emit(c.io, { workflowId: restored.id, restoredFrom: to, revision: restored.revision, changed }, () =>
                changed
                    ? [`${green(c.io, '✓')} ${inline(restored.name)} (${restored.id}) is now as at revision ${to}, as revision ${restored.revision}: ${change}`, `new runs use it; see: ${flowctlCommand(c, `workflows history ${restored.id}`)}`]
                    : `nothing to do: ${inline(restored.name)} (${restored.id}) is already as at revision ${to} (revision ${restored.revision})`
            );
        });
};
