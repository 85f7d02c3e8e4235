// diff -f: what `apply` would change on the server, as a unified diff of YAML; exit 0 when nothing,
// 1 when something would change, above 1 when the comparison itself failed (as `kubectl diff`).
import { client } from '../client.js';
import type { Register } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { emit, type Io } from '../io.js';
import { toCliError } from '../sdk-errors.js';
import { inline } from '../visible.js';
import { loadWorkflows } from '../workflow-file.js';
import { examples } from './help.js';

export interface WorkflowDiff {
    file: string;
    name: string;
    workflowId: string | null;
    /** The revision compared with (what `apply` sends as If-Match); null for a workflow apply would create. */
    revision: number | null;
    action: 'create' | 'update' | 'none';
    changes: string[];
    diff: string[];
}

/** Colour on a terminal only: stdout is where the diff goes, and NO_COLOR turns it off. */
const colourful = (io: Io): boolean => io.stdoutTty && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb' && io.env.FORCE_COLOR !== '0';

const paint = (line: string): string => {
    const code = line.startsWith('+++') || line.startsWith('---') ? 1 : line.startsWith('+') ? 32 : line.startsWith('-') ? 31 : line.startsWith('@@') ? 36 : 0;
    return code === 0 ? line : `\u001b[${code}m${line}\u001b[0m`;
};

/** An error of the comparison exits above 1, so that a script can tell it from "there is a difference". */
const failedDiff = (error: CliError): CliError =>
    error.exitCode === EXIT.failed ? new CliError(error.message, EXIT.usage, error.hint, error.details, 'error') : error;

export const register: Register = (program, ctx) => {
    program
        .command('diff')
        .description('show what `flowctl apply` would change on the server, as a unified diff of YAML')
        .requiredOption('-f, --file <path...>', 'a workflow YAML file, or a folder of them')
        .addHelpText(
            'after',
            `
Exit codes, as kubectl diff: 0 nothing would change · 1 something would · above 1 the comparison
failed (2 a bad file or request, 3 not signed in). Nothing is uploaded or changed; a CSV not on
the server yet shows as its file: path. Colour only on a terminal (NO_COLOR turns it off).
${examples('flowctl diff -f newsletter.yaml', 'flowctl diff -f examples/workflows/newsletter.yaml && echo "nothing to apply"')}`
        )
        .action(async (opts: { file: string[] }) => {
            const c = ctx();
            try {
                const workflows = await loadWorkflows(opts.file);
                const api = await client(c);
                const [{ planWorkflows }, { inKeyOrderOf, toYaml, workflowDocument }, { unifiedDiff }] = await Promise.all([
                    import('../apply.js'),
                    import('../workflow-document.js'),
                    import('../unified-diff.js')
                ]);
                const diffs: WorkflowDiff[] = [];
                for (const plan of await planWorkflows(c, api, workflows, true)) {
                    const local = workflowDocument({ name: plan.workflow.name, webhookUrl: plan.webhookUrl, graph: plan.graph });
                    const server = plan.current ? inKeyOrderOf(workflowDocument(plan.current), local) : null;
                    const diff = unifiedDiff(server === null ? '' : await toYaml(server), await toYaml(local), {
                        from: plan.current ? `${inline(plan.current.name)} (server, ${plan.current.id} revision ${plan.current.revision})` : '/dev/null',
                        to: plan.workflow.file
                    });
                    diffs.push({
                        file: plan.workflow.file,
                        name: plan.workflow.name,
                        workflowId: plan.current?.id ?? null,
                        revision: plan.current?.revision ?? null,
                        action: plan.current === null ? 'create' : plan.changes.length > 0 ? 'update' : 'none',
                        changes: plan.changes,
                        diff: plan.current === null || plan.changes.length > 0 ? diff : []
                    });
                }

                const differ = diffs.some((d) => d.action !== 'none');
                const colour = colourful(c.io);
                emit(c.io, { differ, workflows: diffs }, () => diffs.flatMap((d) => (colour ? d.diff.map(paint) : d.diff)));
                c.exitCode = differ ? EXIT.failed : EXIT.ok;
            } catch (err) {
                throw failedDiff(err instanceof CliError ? err : await toCliError(err, c));
            }
        });
};
