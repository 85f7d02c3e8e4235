// preview: what a run would send now, sending nothing. Each e-mail as a mail reader shows it (From,
// To, Subject, a blank line, the body), then the counts. -f previews a YAML file's graph before apply.
import type { Flowctl, Preview, PreviewEmail, RunNode } from '@flowctl/sdk';

import { client } from '../client.js';
import type { Ctx, Register } from '../context.js';
import { CliError, EXIT, usageError } from '../errors.js';
import { bold, dim, emit, green, type Io } from '../io.js';
import { findWorkflow } from '../resolve.js';
import { sendable } from '../sendable.js';
import { plural } from '../plural.js';
import { inline } from '../visible.js';
import { nodeLine } from '../watch.js';
import { flowctlCommand, shellWord } from '../next-command.js';
import { examples } from './help.js';

const BODY_INDENT = '  ';
const n = (value: number): string => value.toLocaleString('en-US');

/** HTML as a mail reader without HTML shows it: tags gone, block ends as line breaks, entities read. */
export const htmlAsText = (html: string): string =>
    html
        .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
        .replace(/<br\s*\/?>/gi, '\n')
        .replace(/<\/(p|div|h[1-6]|li|tr|table)>/gi, '\n')
        .replace(/<[^>]*>/g, '')
        .replace(/&nbsp;/g, ' ')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&')
        .replace(/\n{3,}/g, '\n\n')
        .trim();

/**
 * The body's lines as server text (controls shown, not obeyed), indented as a mail reader sets a
 * message apart: the CLI's own lines start at the margin, so no line of an e-mail can pass for one.
 */
const bodyLines = (text: string): string[] => text.split(/\r?\n/).map((line) => (line === '' ? '' : `${BODY_INDENT}${inline(line)}`));

/** One e-mail as a mail reader shows it. */
export const emailLines = (io: Io, email: PreviewEmail): string[] => [
    bold(io, `── ${inline(email.nodeId)} #${email.index}${email.suppressed ? ' (suppressed: a run would not mail this address)' : ''} ──`),
    `${BODY_INDENT}From: ${inline(email.from)}`,
    `${BODY_INDENT}To: ${inline(email.to)}`,
    `${BODY_INDENT}Subject: ${inline(email.subject)}`,
    '',
    ...bodyLines(email.text),
    ...(email.html === undefined ? [] : ['', dim(io, '(HTML part, shown as text)'), ...bodyLines(htmlAsText(email.html))]),
    ''
];

/** The rows a DATA_SOURCE node of the preview read (its output is summarised: `{rows: {count, first}, count}`), or null when it read none. */
const rowsRead = (node: Preview['nodes'][number]): number | null => {
    const count = (node.output as { count?: unknown } | null)?.count;
    return typeof count === 'number' ? count : null;
};

/**
 * "would send 4,995 of 10,000 rows; 5,005 filtered out" for one source. With several, the rows of all
 * sources added up are no list the e-mails are a part of (the staff are mailed about the contacts), so
 * "2 of 7 rows" would be wrong: the e-mails are counted alone, and each source's rows beside them.
 */
export const countsLine = (preview: Preview): string => {
    const { totalRows, filteredOut, emailsToSend, suppressed } = preview.result;
    const rest = `${n(filteredOut)} filtered out${suppressed > 0 ? `; ${n(suppressed)} suppressed` : ''}`;
    const unknown = 'it depends on model replies the preview did not ask for';
    const sources = preview.nodes.filter((node) => node.type === 'DATA_SOURCE');
    if (sources.length > 1) {
        const each = sources.map((node) => `${inline(node.nodeId)}: ${rowsRead(node) === null ? 'not read' : n(rowsRead(node) as number)}`).join(', ');
        const send = emailsToSend === null ? `would send an unknown number of e-mails (${unknown})` : `would send ${plural(emailsToSend, 'e-mail')}`;
        return `${send}; read ${plural(totalRows, 'row')} from ${sources.length} sources (${each}); ${rest}`;
    }

    const send =
        emailsToSend === null
            ? `would send an unknown number of e-mails for ${plural(totalRows, 'row')} (${unknown})`
            : `would send ${n(emailsToSend)} of ${plural(totalRows, 'row')}`;
    return `${send}; ${rest}`;
};

const previewLines = (io: Io, preview: Preview, me: string | null): string[] => {
    const failed = preview.nodes.filter((node) => node.status !== 'SUCCESS');
    return [
        ...(preview.emails.length === 0 ? [dim(io, 'no e-mail to show')] : preview.emails.flatMap((email) => emailLines(io, email))),
        // Nodes are listed when one did not succeed: that is what a run would do too.
        ...failed.map((node) => nodeLine(io, { ...node, startedAt: null, completedAt: null } as unknown as RunNode)),
        countsLine(preview),
        ...(preview.testSent === undefined ? [] : [`${green(io, '✓')} sent ${plural(preview.testSent, 'test e-mail')} to ${inline(me ?? 'your address')}, subject prefixed [test]`])
    ];
};

/** The workflow to preview, and with -f the graph of the YAML file (its `file:` CSVs uploaded if new). */
const target = async (c: Ctx, api: Flowctl, ref: string | undefined, file: string | undefined) => {
    if (file === undefined) {
        if (ref === undefined) {
            throw usageError('name the workflow to preview, or give its YAML file with -f', `${flowctlCommand(c, 'preview "Newsletter"')} or ${flowctlCommand(c, 'preview -f newsletter.yaml')}`);
        }

        return { workflow: await findWorkflow(c, api, ref), graph: undefined };
    }

    const { loadWorkflows } = await import('../workflow-file.js');
    const [loaded, ...more] = await loadWorkflows([file]);
    if (!loaded || more.length > 0) {
        throw usageError(`-f ${file} must be one workflow file`, 'preview one workflow at a time');
    }

    // The preview runs on the server, for a workflow it has: the file's workflow, matched by name as apply does.
    const workflow = await findWorkflow(c, api, ref ?? loaded.name).catch((err: unknown) => {
        throw err instanceof CliError && ref === undefined
            ? new CliError(`no workflow is named '${inline(loaded.name)}' on the server yet: a preview runs on the server, for a workflow it has`, EXIT.failed, `create it first: ${flowctlCommand(c, `apply -f ${shellWord(file)}`)}`)
            : err;
    });
    const { placeSources } = await import('../apply.js');
    const { graph } = await placeSources(c, api, loaded, false);
    return { workflow, graph };
};

export const register: Register = (program, ctx) => {
    program
        .command('preview')
        .description('show the e-mails a run would send now, and how many, sending nothing')
        .argument('[workflow]', 'its id, or its whole name (exact, case included); with -f, the file names it')
        .option('-f, --file <file.yaml>', "preview this file's graph (an edit not applied yet); its `file:` CSVs are uploaded if new")
        .option('--rows <n>', 'e-mails to show per OUTPUT node, 1 to 20', '3')
        .option('--send-test', 'also send the shown e-mails to your own account address, subject prefixed [test] (10 an hour)')
        .addHelpText(
            'after',
            examples('flowctl preview "Newsletter to subscribers over 30"', 'flowctl preview -f examples/workflows/newsletter.yaml --rows 5', 'flowctl preview wf_abc --send-test', 'flowctl preview wf_abc --json')
        )
        .action(async (ref: string | undefined, opts: { file?: string; rows: string; sendTest?: boolean }) => {
            const c = ctx();
            const rows = Number(opts.rows);
            if (!Number.isInteger(rows) || rows < 1 || rows > 20) {
                throw new CliError(`--rows '${opts.rows}' is not a whole number from 1 to 20`, EXIT.usage, 'e.g. --rows 5');
            }

            const api = await client(c);
            const { workflow, graph } = await target(c, api, ref, opts.file);
            const preview = await api.workflows.preview(workflow.id, { limit: rows, ...(graph ? { graph: sendable(graph) } : {}), ...(opts.sendTest ? { sendTestTo: 'me' as const } : {}) });
            const me = opts.sendTest && !c.io.json ? (await api.auth.me()).email : null;
            emit(c.io, preview, () => previewLines(c.io, preview, me));
            // A node that fails would fail the run: say so in the exit code, as `run --watch` does.
            if (preview.nodes.some((node) => node.status === 'FAILED')) {
                c.exitCode = EXIT.failed;
            }
        });
};
