// Following a run. On a terminal: one line per node (an ora spinner while it runs, with a progress
// bar, rate and ETA for a node that counts e-mails or model calls; then ✓ ✗ or skipped), then the
// counts and the duration. Without one: a plain line per state change. Ctrl-C
// stops watching, not the run, and prints how to resume; --timeout ends with exit 4.
import { plural } from './plural.js';
import type { Flowctl, Run, RunNode } from '@flowctl/sdk';

import { cliWording } from './cli-wording.js';
import type { Ctx } from './context.js';
import { flowctlCommand } from './next-command.js';
import { formatDuration } from './duration.js';
import { CliError, EXIT } from './errors.js';
import { dim, green, type Io, red } from './io.js';
import { countsOf, Meter, progressLine } from './progress.js';
import { inline, message } from './visible.js';

const DONE = new Set(['SUCCESS', 'FAILED', 'SKIPPED']);

const nodeLabel = (node: RunNode) => inline(`${node.nodeId} (${node.type})`);

/** A node's error as the CLI shows it: the commands to type, not API routes. */
const nodeError = (node: RunNode): string | null => (node.error ? message(cliWording(node.error)) : null);

const took = (from?: string | null, to?: string | null): string => (from && to ? formatDuration(Date.parse(to) - Date.parse(from)) : '');

type Figures = Record<string, unknown> | null | undefined;
const figure = (figures: Figures, name: string): number | null => (typeof figures?.[name] === 'number' ? (figures[name] as number) : null);

/** What language-model calls cost, from a run's result or an AI node's output: `12 AI calls, 900 + 240 tokens`. */
export const aiCost = (figures: Figures): string | null => {
    const calls = figure(figures, 'aiCalls');
    return calls === null ? null : `${calls} AI call${calls === 1 ? '' : 's'}, ${figure(figures, 'aiPromptTokens') ?? 0} + ${figure(figures, 'aiCompletionTokens') ?? 0} tokens`;
};

/** A running node's progress: `120/1000 replies` for AI, or why an OUTPUT node is held up (`waiting: relay unreachable since …`). */
const aiProgress = (node: RunNode): string | null => {
    const output = node.output as Figures & { waiting?: unknown };
    if (node.type === 'OUTPUT') {
        return typeof output?.waiting === 'string' ? `waiting: ${output.waiting}` : null;
    }

    const done = figure(output, 'aiDone');
    return node.type === 'AI' && done !== null ? `${done}/${figure(output, 'aiTotal') ?? '?'} replies` : null;
};


/** An OUTPUT node's e-mails whose outcome is unknown (its error, when it failed, says so in full). */
const unknownNote = (node: RunNode): string | null => {
    const count = node.type === 'OUTPUT' ? figure(node.output as Figures, 'unknownOutcome') : null;
    return count ? `${plural(count, 'e-mail', 'e-mails')} may have arrived, not counted` : null;
};

export const nodeLine = (io: Io, node: RunNode): string => {
    const cost = node.type === 'AI' ? aiCost(node.output as Figures) : null;
    if (node.status === 'SUCCESS') {
        return `${green(io, '✓')} ${nodeLabel(node)} ${dim(io, [took(node.startedAt, node.completedAt), cost, unknownNote(node)].filter(Boolean).join(' · '))}`.trimEnd();
    }

    if (node.status === 'FAILED') {
        return `${red(io, '✗')} ${nodeLabel(node)}: ${nodeError(node) ?? 'failed'}${cost ? ` ${dim(io, `(${cost})`)}` : ''}`;
    }

    if (node.status === 'SKIPPED') {
        return `${dim(io, '-')} ${nodeLabel(node)} ${dim(io, 'skipped')}`;
    }

    const progress = aiProgress(node);
    return `· ${nodeLabel(node)} ${inline(node.status.toLowerCase())}${progress ? ` · ${inline(progress)}` : ''}`;
};

export const resultLine = (run: Run): string => {
    const result = run.result as { totalRows?: number; filteredOut?: number; emailsSent?: number; suppressed?: number } | null | undefined;
    const cost = aiCost(result as Figures);
    // Suppressed addresses (unsubscribed, bounced, complained, added by hand) are not failures: said apart.
    const suppressed = result?.suppressed ? `, ${result.suppressed} suppressed` : '';
    const counts = result
        ? `${plural(result.totalRows ?? 0, 'row')}, ${result.filteredOut ?? 0} filtered out, ${plural(result.emailsSent ?? 0, 'e-mail')} sent${suppressed}${cost ? `, ${cost}` : ''}`
        : 'no result';
    const duration = took(run.startedAt ?? run.triggeredAt, run.completedAt);
    return inline(`${run.status}${duration ? ` in ${duration}` : ''} · ${counts} · ${run.runId}`);
};

/**
 * What a run's figures say of e-mails an interruption (or an answer that never came) left uncertain,
 * in words: the figures alone (`possiblyDuplicated`, `unknownOutcome`) mean nothing to most readers.
 */
export const resultNotes = (run: Run): string[] => {
    const result = run.result as Figures;
    const twice = figure(result, 'possiblyDuplicated');
    const unknown = figure(result, 'unknownOutcome');
    const notes: string[] = [];
    if (twice) {
        notes.push(`${plural(twice, 'e-mail', 'e-mails')} may have been delivered twice: sent again after a copy went unanswered, with the same Message-ID`);
    }

    if (unknown) {
        notes.push(
            run.retryOf
                ? `${plural(unknown, 'e-mail was', 'e-mails were')} not retried: ${unknown === 1 ? 'it' : 'they'} may already have arrived`
                : `${plural(unknown, 'e-mail', 'e-mails')} may have arrived though the answer was lost: counted neither as sent nor as failed, and a retry does not send ${unknown === 1 ? 'it' : 'them'}`
        );
    }

    return notes.map((note) => `  ${inline(note)}`);
};

interface Display {
    /** The run's or a node's status changed. */
    update(run: Run): void;
    /** Any new state, figures included. */
    progress?(run: Run): void;
    stop(): void;
}

/** How often the bars are drawn again without news: the rate falls and the ETA grows while nothing moves. */
const REDRAW_MS = 500;

/** One plain line per change of the run's or a node's status. */
const plainDisplay = (write: (line: string) => void): Display => {
    const seen = new Map<string, string>();
    return {
        update(run) {
            // The run's line goes first while it runs, and last once it has ended: the snapshot that
            // ends it also ends its last nodes, and `run …: FAILED` above them would read as if they
            // came after the end.
            const ended = run.completedAt !== null && run.completedAt !== undefined;
            const runLine = () => {
                if (seen.get('') !== run.status) {
                    seen.set('', run.status);
                    write(`run ${inline(`${run.runId}: ${run.status}`)}`);
                }
            };
            if (!ended) {
                runLine();
            }

            for (const node of run.nodes) {
                if (node.status !== 'PENDING' && seen.get(node.nodeId) !== node.status) {
                    seen.set(node.nodeId, node.status);
                    write(`node ${nodeLabel(node)}: ${inline(node.status)}${node.error ? `: ${nodeError(node)}` : ''}`);
                }

                // A held-up OUTPUT node says so once per change (relay down, back).
                const waiting = node.status === 'RUNNING' && node.type === 'OUTPUT' ? (aiProgress(node) ?? '') : '';
                if ((seen.get(`waiting:${node.nodeId}`) ?? '') !== waiting) {
                    seen.set(`waiting:${node.nodeId}`, waiting);
                    write(`node ${nodeLabel(node)}: ${inline(waiting || 'sending again')}`);
                }
            }

            if (ended) {
                runLine();
            }
        },
        stop() {}
    };
};

/** An ora spinner on stderr for what runs now; finished nodes are written above it, one line each. */
const terminalDisplay = async (io: Io, runId: string): Promise<Display> => {
    const { default: ora } = await import('ora');
    // A pseudo-terminal nobody sized (some CI runners, `script` without a terminal) reports 0 columns,
    // and ora then counts the lines to clear as text length / 0: it clears lines forever.
    if (!process.stderr.columns) {
        process.stderr.columns = Number(io.env.COLUMNS) || 80;
    }

    const spinner = ora({ stream: process.stderr, text: `run ${runId}: waiting to start`, discardStdin: false, color: io.color ? 'cyan' : false, isEnabled: true }).start();
    const persisted = new Set<string>();
    const meter = new Meter();
    let last: Run | null = null;
    const draw = () => {
        if (!last) {
            return;
        }

        const now = Date.now();
        const running = last.nodes.filter((node) => node.status === 'RUNNING');
        const counted = running.map((node) => progressLine(io, node, meter, now)).filter((line): line is string => line !== null);
        const others = running.filter((node) => countsOf(node) === null);
        const lines = [...(others.length > 0 ? [`${others.map((node) => nodeLabel(node)).join(', ')} running`] : []), ...counted];
        spinner.text = lines.length > 0 ? lines.join('\n  ') : `run ${inline(`${last.runId}: ${last.status.toLowerCase()}`)}`;
    };
    const progress = (run: Run) => {
        const now = Date.now();
        for (const node of run.nodes) {
            const counts = node.status === 'RUNNING' ? countsOf(node) : null;
            if (counts) {
                meter.see(node.nodeId, counts.done, now);
            }
        }

        last = run;
        draw();
    };
    const timer = setInterval(draw, REDRAW_MS);
    return {
        update(run) {
            for (const node of run.nodes) {
                if (DONE.has(node.status) && !persisted.has(node.nodeId)) {
                    persisted.add(node.nodeId);
                    spinner.stopAndPersist({ symbol: '', text: nodeLine(io, node) }).start();
                }
            }

            progress(run);
        },
        progress,
        stop() {
            clearInterval(timer);
            spinner.stop();
        }
    };
};

/** `::error::` workflow commands for GitHub Actions, one per failed node. */
const githubErrors = (run: Run, workflow: string | undefined): string[] => {
    const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
    const failed = run.nodes.filter((node) => node.status === 'FAILED');
    const title = `flowctl run ${run.runId}${workflow ? ` of ${workflow}` : ''} ended ${run.status}`;
    if (failed.length === 0) {
        return [`::error title=${escapeData(title)}::${escapeData(`run ${run.runId} ended ${run.status}`)}`];
    }

    return failed.map((node) => `::error title=${escapeData(title)}::${escapeData(`node ${nodeLabel(node)} failed: ${nodeError(node) ?? 'no message'}`)}`);
};

export interface WatchOptions {
    timeoutMs?: number;
    /** The workflow's name, for messages. */
    workflow?: string;
}

/** Watches to the end and reports; sets ctx.exitCode 1 for FAILED/CANCELLED; throws for timeout and Ctrl-C. */
export const watchRun = async (ctx: Ctx, api: Flowctl, runId: string, options: WatchOptions = {}): Promise<Run> => {
    const { io } = ctx;
    const display = io.stderrTty ? await terminalDisplay(io, runId) : io.json ? null : plainDisplay((line) => io.out(line));
    const stop = new AbortController();
    const onSigint = () => stop.abort();
    process.once('SIGINT', onSigint);
    const sdk = await import('@flowctl/sdk');
    let run: Run;
    try {
        run = await api.runs.wait(runId, {
            signal: stop.signal,
            onUpdate: (update) => display?.update(update),
            ...(display?.progress ? { onProgress: (state: Run) => display.progress?.(state) } : {}),
            ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {})
        });
        display?.update(run);
    } catch (err) {
        if (err instanceof sdk.AbortError && stop.signal.aborted) {
            throw new CliError(`stopped watching; run ${runId} goes on`, EXIT.interrupted, `watch it again: ${flowctlCommand(ctx, `runs watch ${runId}`)}`);
        }

        if (err instanceof sdk.WaitTimeoutError) {
            const last = err.run as Run | undefined;
            throw new CliError(
                `run ${runId} is still ${last?.status ?? 'not finished'} after ${formatDuration(options.timeoutMs ?? 0)}; it goes on`,
                EXIT.timeout,
                `keep watching: ${flowctlCommand(ctx, `runs watch ${runId}`)}, or stop it: ${flowctlCommand(ctx, `runs cancel ${runId}`)}`
            );
        }

        throw err;
    } finally {
        display?.stop();
        process.removeListener('SIGINT', onSigint);
    }

    if (io.json) {
        io.out(io.doc(run));
    } else {
        io.out(run.status === 'SUCCESS' ? `${green(io, '✓')} ${resultLine(run)}` : `${red(io, '✗')} ${resultLine(run)}`);
        for (const note of resultNotes(run)) {
            io.out(note);
        }
    }

    if (run.status !== 'SUCCESS') {
        ctx.exitCode = EXIT.failed;
        if (io.githubActions) {
            const lines = githubErrors(run, options.workflow);
            for (const line of lines) {
                (io.json ? io.err : io.out)(line);
            }
        }

        io.err(`${red(io, 'error:')} run ${runId} ended ${run.status}\n${dim(io, `  → see each node: ${flowctlCommand(ctx, `runs get ${runId}`)}`)}`);
    }

    return run;
};
