// run, and runs list|get|cancel|retry|watch|deliveries.
import type { Delivery, DeliveryStatus, RecentRun, Run, RunSummary } from '@flowctl/sdk';

import { client } from '../client.js';
import type { Ctx, Register } from '../context.js';
import { formatDuration, parseDuration } from '../duration.js';
import { CliError, EXIT } from '../errors.js';
import { bold, dim, emit, green, table } from '../io.js';
import { findWorkflow, orNotFound } from '../resolve.js';
import { flowctlCommand, shellWord } from '../next-command.js';
import { inline, message } from '../visible.js';
import { nodeLine, resultLine, resultNotes, watchRun } from '../watch.js';
import { examples } from './help.js';

/** `schedule 2026-…` for a scheduled run (its tick), else the kind. */
const triggerText = (trigger: RunSummary['trigger']): string => (trigger.scheduledFor ? `${trigger.type} ${trigger.scheduledFor}` : trigger.type);


const DELIVERY_STATUSES = ['sent', 'failed', 'unknown', 'pending', 'suppressed'] as const;

const runNotFound = (ctx: Ctx, runId: string) => [`run '${runId}' not found`, `see your recent runs: ${flowctlCommand(ctx, 'runs list')}`] as const;

/**
 * `lead` and the server's reason, naming the run once: the server's message names it too ("Run 'run_1'
 * already ended SUCCESS: …"), which becomes "it" after the CLI's own lead-in.
 */
const refusal = (lead: string, runId: string, serverMessage: string): string => {
    const text = message(serverMessage);
    const prefix = `Run '${runId}' `;
    return `${lead}: ${text.startsWith(prefix) ? `it ${text.slice(prefix.length)}` : text}`;
};

/** The first `limit` items of a paged list. */
const firstOf = async <T>(list: AsyncIterable<T>, limit: number): Promise<T[]> => {
    const found: T[] = [];
    for await (const item of list) {
        found.push(item);
        if (found.length >= limit) {
            break;
        }
    }

    return found;
};

const recentTable = (runs: RecentRun[]): string[] =>
    table([
        ['RUN', 'WORKFLOW', 'STATUS', 'TRIGGER', 'DURATION', 'E-MAILS', 'CREATED'],
        ...runs.map((r) => [r.runId, r.workflowName, r.status, r.trigger, r.durationMs === null ? '-' : formatDuration(r.durationMs), r.emailsSent === null ? '-' : String(r.emailsSent), r.createdAt])
    ]);

const runLines = (ctx: Ctx, run: Run): string[] => [
    `${bold(ctx.io, inline(run.runId))} of ${inline(`${run.workflowId} revision ${run.revision}: ${run.status}${run.retryOf ? ` (a retry of ${run.retryOf})` : ''}`)}`,
    `${dim(ctx.io, inline(`enqueued ${run.enqueuedAt}${run.startedAt ? ` · started ${run.startedAt}` : ''}${run.completedAt ? ` · completed ${run.completedAt}` : ''}`))}`,
    ...run.nodes.map((node) => `  ${nodeLine(ctx.io, node)}`),
    ...(run.completedAt ? [resultLine(run), ...resultNotes(run)] : [`watch it: ${flowctlCommand(ctx, `runs watch ${run.runId}`)}`])
];

export const register: Register = (program, ctx) => {
    program
        .command('run')
        .description('enqueue a run of a workflow, and with --watch follow it to the end')
        .argument('<workflow>', 'its id, or its whole name (exact, case included)')
        .option('-w, --watch', 'follow the run until it ends; exit 1 if it ends FAILED or CANCELLED')
        .option('--timeout <duration>', 'with --watch: give up watching after this long (e.g. 10m), exit 4; the run goes on')
        .option('--idempotency-key <key>', 'the same key within 24 h enqueues one run, however often it is sent (default: a new one)')
        .addHelpText('after', examples('flowctl run "Newsletter to subscribers over 30" --watch', 'flowctl run wf_abc --watch --timeout 10m', 'flowctl run wf_abc --json'))
        .action(async (ref: string, opts: { watch?: boolean; timeout?: string; idempotencyKey?: string }) => {
            const c = ctx();
            const timeoutMs = opts.timeout === undefined ? undefined : parseDuration(opts.timeout);
            if (timeoutMs !== undefined && !opts.watch) {
                throw new CliError('--timeout only applies with --watch', EXIT.usage, flowctlCommand(c, `run ${shellWord(ref)} --watch --timeout ${opts.timeout}`));
            }

            const api = await client(c);
            const workflow = await findWorkflow(c, api, ref);
            const enqueued = await api.runs.enqueue(workflow.id, { idempotencyKey: opts.idempotencyKey ?? globalThis.crypto.randomUUID() });
            if (!opts.watch) {
                emit(c.io, enqueued, () => [`${green(c.io, '✓')} enqueued run ${enqueued.runId} of ${inline(workflow.name)}`, `watch it: ${flowctlCommand(c, `runs watch ${enqueued.runId}`)}`]);
                return;
            }

            if (!c.io.json && !c.io.stderrTty) {
                c.io.out(`enqueued run ${enqueued.runId} of ${inline(workflow.name)}`);
            }

            await watchRun(c, api, enqueued.runId, { workflow: workflow.name, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
        });

    const runs = program.command('runs').alias('r').description('list, show, cancel, retry and watch runs')
        .addHelpText('after', examples('flowctl runs list', 'flowctl runs get run_abc'));

    runs.command('list')
        .alias('ls')
        .description("your recent runs across workflows, or a workflow's runs; most recent first")
        .argument('[workflow]', 'only this workflow: its id, or its whole name (exact, case included)')
        .option('--limit <n>', 'at most this many', '20')
        .addHelpText('after', examples('flowctl runs list', 'flowctl runs list "Newsletter to subscribers over 30"', 'flowctl runs list --limit 100 -o yaml'))
        .action(async (ref: string | undefined, opts: { limit: string }) => {
            const c = ctx();
            const limit = Number(opts.limit);
            if (!Number.isInteger(limit) || limit < 1) {
                throw new CliError(`--limit '${opts.limit}' is not a positive whole number`, EXIT.usage, 'e.g. --limit 50');
            }

            const api = await client(c);
            if (ref === undefined) {
                const recent = await firstOf(api.runs.recent({ limit: Math.min(limit, 500) }), limit);
                emit(c.io, recent, () => (recent.length === 0 ? `no runs yet: ${flowctlCommand(c, 'run <workflow>')} (see your workflows: ${flowctlCommand(c, 'workflows list')})` : recentTable(recent)));
                return;
            }

            const workflow = await findWorkflow(c, api, ref);
            const found: RunSummary[] = await firstOf(api.runs.list(workflow.id, { limit: Math.min(limit, 500) }), limit);

            emit(c.io, found, () =>
                found.length === 0
                    ? `no runs of ${inline(workflow.name)} yet: ${flowctlCommand(c, `run ${workflow.id}`)}`
                    : table([['RUN', 'STATUS', 'REVISION', 'TRIGGER', 'CREATED'], ...found.map((r) => [r.runId, r.status, String(r.revision), triggerText(r.trigger), r.createdAt])])
            );
        });

    runs.command('get')
        .description('a run: its status, each node, the result')
        .argument('<runId>')
        .addHelpText('after', examples('flowctl runs get run_abc', 'flowctl runs get run_abc -o json'))
        .action(async (runId: string) => {
            const c = ctx();
            const api = await client(c);
            const run = await orNotFound(api.runs.retrieve(runId), ...runNotFound(c, runId));
            emit(c.io, run, () => runLines(c, run));
        });

    runs.command('cancel')
        .description('cancel a run: a PENDING one at once, a RUNNING one at its next element')
        .argument('<runId>')
        .addHelpText('after', examples('flowctl runs cancel run_abc'))
        .action(async (runId: string) => {
            const c = ctx();
            const api = await client(c);
            const sdk = await import('@flowctl/sdk');
            const run = await orNotFound(api.runs.cancel(runId), ...runNotFound(c, runId)).catch((err: unknown) => {
                if (err instanceof sdk.ConflictError) {
                    throw new CliError(refusal(`run ${runId} cannot be cancelled`, runId, err.message), EXIT.failed, `see how it ended: ${flowctlCommand(c, `runs get ${runId}`)}`);
                }

                throw err;
            });
            emit(c.io, run, () => `${green(c.io, '✓')} run ${runId}: ${run.status}${run.status === 'CANCELLED' ? '' : ' (stops at its next element)'}`);
        });

    runs.command('retry')
        .description('retry a finished run as a new run: one stopped at or before an AI or data node runs again, asking the model only for replies not recorded; otherwise its refused e-mails are sent again')
        .argument('<runId>')
        .option('-w, --watch', 'follow the new run until it ends; exit 1 if it ends FAILED or CANCELLED')
        .option('--latest', "execute the workflow as it is now, not the revision the run executed")
        .addHelpText('after', examples('flowctl runs retry run_abc --watch'))
        .action(async (runId: string, opts: { watch?: boolean; latest?: boolean }) => {
            const c = ctx();
            const api = await client(c);
            const sdk = await import('@flowctl/sdk');
            const retry = api.runs.retry(runId, { idempotencyKey: globalThis.crypto.randomUUID(), ...(opts.latest ? { revision: 'latest' as const } : {}) });
            const enqueued = await orNotFound(retry, ...runNotFound(c, runId)).catch((err: unknown) => {
                if (err instanceof sdk.ConflictError) {
                    throw new CliError(refusal(`run ${runId} cannot be retried`, runId, err.message), EXIT.failed, `see why: ${flowctlCommand(c, `runs get ${runId}`)}`);
                }

                throw err;
            });
            if (!opts.watch) {
                emit(c.io, enqueued, () => [`${green(c.io, '✓')} enqueued run ${enqueued.runId}, a retry of ${runId}`, `watch it: ${flowctlCommand(c, `runs watch ${enqueued.runId}`)}`]);
                return;
            }

            await watchRun(c, api, enqueued.runId, {});
        });

    runs.command('deliveries')
        .description("who got what: each e-mail of the run's OUTPUT nodes, its recipient and what became of it")
        .argument('<runId>')
        .option('--status <status>', `only these: ${DELIVERY_STATUSES.join(', ')}`)
        .option('--limit <n>', 'at most this many (default: all)')
        .addHelpText(
            'after',
            examples('flowctl runs deliveries run_abc --status failed', 'flowctl runs deliveries run_abc | grep ada@example.com', 'flowctl runs deliveries run_abc --status sent --json')
        )
        .action(async (runId: string, opts: { status?: string; limit?: string }) => {
            const c = ctx();
            if (opts.status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(opts.status)) {
                throw new CliError(`--status '${opts.status}' is not one of ${DELIVERY_STATUSES.join(', ')}`, EXIT.usage, `e.g. ${flowctlCommand(c, `runs deliveries ${runId} --status failed`)}`);
            }

            const limit = opts.limit === undefined ? Number.POSITIVE_INFINITY : Number(opts.limit);
            if (opts.limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
                throw new CliError(`--limit '${opts.limit}' is not a positive whole number`, EXIT.usage, 'e.g. --limit 100');
            }

            const api = await client(c);
            const status = opts.status as DeliveryStatus | undefined;
            const list = api.runs.deliveries(runId, { ...(status ? { status } : {}), limit: Math.min(limit, 500) });
            const found: Delivery[] = [];
            await orNotFound(
                (async () => {
                    for await (const delivery of list) {
                        found.push(delivery);
                        if (found.length >= limit) {
                            break;
                        }
                    }
                })(),
                ...runNotFound(c, runId)
            );

            emit(c.io, found, () => {
                if (found.length === 0) {
                    return status ? `no ${status} e-mails in run ${runId}` : `run ${runId} has no e-mails (yet): see its nodes with ${flowctlCommand(c, `runs get ${runId}`)}`;
                }

                const rows = found.map((d) => [d.nodeId, String(d.index), d.to ?? '-', d.status, String(d.attempts), d.at ?? '-', d.error ?? '']);
                // A table for a person; tab-separated lines for grep, cut and awk.
                return c.io.stdoutTty ? table([['NODE', '#', 'TO', 'STATUS', 'ATTEMPTS', 'AT', 'ERROR'], ...rows]) : rows.map((row) => row.map(inline).join('\t'));
            });
        });

    runs.command('watch')
        .description('follow a run until it ends; exit 1 if it ends FAILED or CANCELLED')
        .argument('<runId>')
        .option('--timeout <duration>', 'give up watching after this long (e.g. 10m), exit 4; the run goes on')
        .addHelpText('after', examples('flowctl runs watch run_abc', 'flowctl runs watch run_abc --timeout 5m'))
        .action(async (runId: string, opts: { timeout?: string }) => {
            const c = ctx();
            const timeoutMs = opts.timeout === undefined ? undefined : parseDuration(opts.timeout);
            const api = await client(c);
            await orNotFound(api.runs.retrieve(runId), ...runNotFound(c, runId));
            await watchRun(c, api, runId, timeoutMs !== undefined ? { timeoutMs } : {});
        });
};

