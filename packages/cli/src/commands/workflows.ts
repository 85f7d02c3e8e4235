// workflows create|list|get|rm|pause|resume, and apply.
import type { WorkflowCreated, WorkflowSummary } from '@flowctl/sdk';
import type { Command } from 'commander';

import type { Applied } from '../apply.js';
import { client } from '../client.js';
import type { Register } from '../context.js';
import { usageError } from '../errors.js';
import { bold, dim, emit, green, table } from '../io.js';
import { canPrompt } from '../prompt.js';
import { allOf, findWorkflow } from '../resolve.js';
import { sendable } from '../sendable.js';
import { flowctlCommand } from '../next-command.js';
import { inline } from '../visible.js';
import { loadWorkflows } from '../workflow-file.js';
import { examples } from './help.js';
import { registerRevisions, revisionNumber } from './revisions.js';

/** When a scheduled workflow runs next, as list and get show it. */
const nextRun = (w: WorkflowSummary): string => (w.schedule ? (w.schedule.paused ? 'paused' : (w.schedule.nextRunAt ?? '')) : w.webhook ? (w.paused ? 'hook, paused' : 'on hook') : '');

const SYMBOL: Record<Applied['action'], string> = { created: '+', updated: '~', unchanged: '=', 'would create': '+', 'would update': '~' };

const appliedLines = (results: Applied[], dryRun: boolean): string[] => {
    const lines = results.flatMap((r) => [
        `${SYMBOL[r.action]} ${r.action.padEnd(12)} ${inline(r.name)}${r.workflowId ? ` (${r.workflowId})` : ''}  ${r.file}`,
        ...r.uploads.filter((u) => u.action !== 'unchanged').map((u) => `    ${u.action} ${u.path} for node ${u.nodeId}${u.uploadId ? ` -> ${u.uploadId}` : ''}`),
        ...r.changes.map((change) => `    changed: ${change}`),
        ...(r.hookUrl ? [`    hook URL (shown only now; keep it secret): ${r.hookUrl}`] : [])
    ]);
    const writes = results.filter((r) => r.action !== 'unchanged').length;
    lines.push(
        writes === 0
            ? `nothing to do: ${results.length === 1 ? 'the workflow matches' : `all ${results.length} workflows match`} the server`
            : dryRun
              ? `dry run: ${writes} workflow${writes === 1 ? '' : 's'} would change; run without --dry-run to apply`
              : `${writes} workflow${writes === 1 ? '' : 's'} changed`
    );
    return lines;
};

export const register: Register = (program, ctx) => {
    program
        .command('apply')
        .description('create or update workflows from YAML files, matched by name')
        .requiredOption('-f, --file <path...>', 'a workflow YAML file, or a folder of them')
        .option('--dry-run', 'say what would change; change nothing')
        .addHelpText(
            'after',
            `
A DATA_SOURCE may say \`file: ./contacts.csv\` (relative to the YAML file): the file is uploaded
and its uploadId filled in. A file the server has already (same bytes, same name) is not sent again.
${examples('flowctl apply -f examples/workflows/', 'flowctl apply -f examples/workflows/newsletter.yaml --dry-run')}`
        )
        .action(async (opts: { file: string[]; dryRun?: boolean }) => {
            const c = ctx();
            const workflows = await loadWorkflows(opts.file);
            const api = await client(c);
            const { applyWorkflows } = await import('../apply.js');
            const results = await applyWorkflows(c, api, workflows, Boolean(opts.dryRun));
            emit(c.io, { dryRun: Boolean(opts.dryRun), workflows: results }, () => appliedLines(results, Boolean(opts.dryRun)));
        });

    const workflows = program.command('workflows').alias('workflow').description('create, list, show and remove workflows')
        .addHelpText('after', examples('flowctl workflows list', 'flowctl workflows get "Newsletter to subscribers over 30"'));

    workflows
        .command('create')
        .description('create workflows from YAML files (always new ones; `flowctl apply` updates by name)')
        .requiredOption('-f, --file <path...>', 'a workflow YAML file, or a folder of them')
        .addHelpText('after', examples('flowctl workflows create -f examples/workflows/two-sources.yaml'))
        .action(async (opts: { file: string[] }) => {
            const c = ctx();
            const files = await loadWorkflows(opts.file);
            const api = await client(c);
            const [{ placeFile }, { checkUploadColumns, inWorkflowFile }] = await Promise.all([import('../uploads.js'), import('../graph-problems.js')]);
            await checkUploadColumns(api, files);
            const created: (WorkflowCreated & { file: string })[] = [];
            for (const workflow of files) {
                const graph = structuredClone(workflow.graph);
                for (const source of workflow.sources) {
                    const placed = await placeFile(c, api, source.path, false);
                    const node = graph.nodes.find((n) => n.id === source.nodeId);
                    (node!.data as { uploadId?: string }).uploadId = placed.uploadId!;
                }

                const answer = await api.workflows
                    .create({ name: workflow.name, graph: sendable(graph), ...(workflow.webhookUrl ? { webhookUrl: workflow.webhookUrl } : {}) })
                    .catch(async (err: unknown) => {
                        throw await inWorkflowFile(workflow, err);
                    });
                created.push({ ...answer, file: workflow.file });
            }

            emit(c.io, created.length === 1 ? created[0] : created, () =>
                created.map(
                    (w) =>
                        `${green(c.io, '✓')} created ${inline(w.name)} (${w.workflowId}) from ${w.file}\n${w.hookUrl ? `  hook URL (shown only now; keep it secret): ${w.hookUrl}\n` : ''}  next: ${flowctlCommand(c, `run ${w.workflowId} --watch`)}`
                )
            );
        });

    workflows
        .command('list')
        .alias('ls')
        .description('list your workflows')
        .addHelpText('after', examples('flowctl workflows list', 'flowctl workflows list --json'))
        .action(async () => {
            const c = ctx();
            const api = await client(c);
            const all = await allOf(api.workflows.list());
            emit(c.io, all, () =>
                all.length === 0
                    ? `no workflows yet: ${flowctlCommand(c, 'apply -f <file.yaml>')}`
                    : table([['ID', 'NAME', 'NODES', 'NEXT RUN', 'CREATED'], ...all.map((w) => [w.id, w.name, String(w.graph.nodes.length), nextRun(w), w.createdAt])])
            );
        });

    workflows
        .command('get')
        .description('show a workflow; -o yaml (or -o json) prints it as a file `flowctl apply` takes back, --json as the API answers it')
        .argument('<workflow>', 'its id, or its whole name (exact, case included)')
        .option('--revision <n>', 'as it was at this revision (flowctl workflows history lists them)')
        .addHelpText(
            'after',
            examples(
                'flowctl workflows get wf_abc',
                'flowctl workflows get "Newsletter to subscribers over 30" -o yaml > newsletter.yaml',
                'flowctl workflows get wf_abc --revision 1 -o yaml > newsletter.yaml'
            )
        )
        .action(async (ref: string, opts: { revision?: string }, command: Command) => {
            const c = ctx();
            const at = opts.revision === undefined ? undefined : revisionNumber(c, '--revision', opts.revision, ref);
            const api = await client(c);
            const current = await findWorkflow(c, api, ref);
            const old = at === undefined || at === current.revision ? null : await api.workflows.revisions.get(current.id, at);
            // An earlier revision has its own name and graph; the webhook is not part of revisions.
            const workflow = old ? { ...current, name: old.name, graph: old.graph, revision: old.revision, updatedAt: old.createdAt } : current;
            const file = { name: workflow.name, ...(workflow.webhookUrl ? { webhookUrl: workflow.webhookUrl } : {}), graph: workflow.graph };
            // -o prints the workflow as a file; --json (which wins over -o) as the API answers it.
            if (command.optsWithGlobals<{ json?: boolean }>().json !== true && c.io.format !== null) {
                c.io.out(c.io.doc(file));
                return;
            }

            emit(c.io, workflow, () => [
                `${bold(c.io, inline(workflow.name))} ${dim(c.io, inline(workflow.id))}`,
                inline(
                    `revision ${workflow.revision}${old ? ` of ${current.revision}` : ''} · created ${workflow.createdAt} · ${old ? 'revision made' : 'updated'} ${workflow.updatedAt}${workflow.webhookUrl ? ` · webhook ${workflow.webhookUrl}` : ''}`
                ),
                // The schedule and hook are the workflow's as it is now, not an earlier revision's.
                ...(workflow.schedule && !old
                    ? [inline(`schedule ${workflow.schedule.cron} (${workflow.schedule.timezone}) · next run ${nextRun(workflow)} · ${workflow.schedule.skippedTicks} ticks skipped`)]
                    : []),
                ...(workflow.webhook && !old ? [`hook ${workflow.paused ? 'paused' : 'on'} (a new URL: ${flowctlCommand(c, `workflows rotate-hook ${workflow.id}`)})`] : []),
                ...table(workflow.graph.nodes.map((node) => {
                    const upstream = workflow.graph.edges.filter((e) => e.target === node.id).map((e) => e.source);
                    return [`  ${node.id}`, node.type, upstream.length ? `after ${upstream.join(', ')}` : ''];
                })),
                `run it: ${flowctlCommand(c, `run ${workflow.id} --watch`)}`
            ]);
        });

    for (const [verb, paused] of [
        ['pause', true],
        ['resume', false]
    ] as const) {
        workflows
            .command(verb)
            .description(paused ? 'stop its schedule (and hook) from starting runs' : 'let its schedule (and hook) start runs again, from the next tick')
            .argument('<workflow>', 'its id, or its whole name (exact, case included)')
            .addHelpText('after', examples(`flowctl workflows ${verb} "Weekday digest"`, `flowctl workflows ${verb} "Weekday digest" --json`))
            .action(async (ref: string) => {
                const c = ctx();
                const api = await client(c);
                const workflow = await findWorkflow(c, api, ref);
                const changed = paused ? await api.workflows.pause(workflow.id) : await api.workflows.resume(workflow.id);
                emit(c.io, changed, () =>
                    paused
                        ? `${green(c.io, '✓')} paused ${inline(changed.name)} (${changed.id}): no run starts by itself until: ${flowctlCommand(c, `workflows resume ${changed.id}`)}`
                        : `${green(c.io, '✓')} resumed ${inline(changed.name)} (${changed.id})${changed.schedule?.nextRunAt ? `: next run ${changed.schedule.nextRunAt}` : ''}`
                );
            });
    }

    workflows
        .command('rotate-hook')
        .description('replace the hook URL that starts runs (the old one stops working at once)')
        .argument('<workflow>', 'its id, or its whole name (exact, case included)')
        .addHelpText('after', examples('flowctl workflows rotate-hook wf_abc'))
        .action(async (ref: string) => {
            const c = ctx();
            const api = await client(c);
            const workflow = await findWorkflow(c, api, ref);
            const rotated = await api.workflows.rotateHook(workflow.id);
            emit(c.io, { workflowId: workflow.id, ...rotated }, () => `${green(c.io, '✓')} new hook URL for ${inline(workflow.name)} (shown only now; keep it secret):\n  ${rotated.hookUrl}`);
        });

    registerRevisions(workflows, ctx);

    workflows
        .command('rm')
        .alias('delete')
        .description('delete a workflow and all its runs')
        .argument('<workflow>', 'its id, or its whole name (exact, case included)')
        .option('-y, --yes', 'do not ask for confirmation')
        .addHelpText('after', examples('flowctl workflows rm wf_abc', 'flowctl workflows rm wf_abc --yes'))
        .action(async (ref: string, opts: { yes?: boolean }) => {
            const c = ctx();
            const api = await client(c);
            const workflow = await findWorkflow(c, api, ref);
            if (!opts.yes) {
                if (!canPrompt(c.io)) {
                    throw usageError(`deleting '${inline(workflow.name)}' removes it and all its runs: confirm with --yes`, flowctlCommand(c, `workflows rm ${workflow.id} --yes`));
                }

                const { confirm } = await import('@inquirer/prompts');
                if (!(await confirm({ message: `Delete '${inline(workflow.name)}' (${workflow.id}) and all its runs?`, default: false }, { output: process.stderr }))) {
                    emit(c.io, { deleted: false, workflowId: workflow.id }, () => 'kept');
                    return;
                }
            }

            await api.workflows.delete(workflow.id);
            emit(c.io, { deleted: true, workflowId: workflow.id, name: workflow.name }, () => `${green(c.io, '✓')} deleted ${inline(workflow.name)} (${workflow.id})`);
        });
};
