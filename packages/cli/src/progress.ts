// Progress bars for `run --watch` on a terminal: per running node, a bar with its counts (e-mails sent
// of the OUTPUT's elements, model replies of the AI node's), the rate over the last seconds and the time
// left at that rate. The figures come from the run detail, which carries them while the node runs.
import type { RunNode } from '@flowctl/sdk';

import { green, type Io } from './io.js';
import { inline } from './visible.js';

/** The rate is measured over this window: recent enough to follow a mail server slowing down. */
const RATE_WINDOW_MS = 10_000;
const BAR_WIDTH = 24;

type Figures = Record<string, unknown> | null | undefined;
const figure = (figures: Figures, name: string): number | null => (typeof figures?.[name] === 'number' ? (figures[name] as number) : null);

/** What a running node has done of how much, and in what unit; null for a node that reports no count. */
export const countsOf = (node: RunNode): { done: number; total: number | null; unit: string } | null => {
    const output = node.output as Figures;
    if (node.type === 'OUTPUT') {
        const sent = figure(output, 'emailsSent');
        return sent === null ? null : { done: sent, total: figure(output, 'emailsTotal'), unit: 'e-mails' };
    }

    if (node.type === 'AI') {
        const done = figure(output, 'aiDone');
        return done === null ? null : { done, total: figure(output, 'aiTotal'), unit: 'AI calls' };
    }

    return null;
};

/** Counts seen over time, per node: gives the rate and the time left. */
export class Meter {
    private readonly samples = new Map<string, { at: number; done: number }[]>();

    /** Notes a node's count as seen at `at` (ms). */
    see(nodeId: string, done: number, at: number): void {
        const samples = this.samples.get(nodeId) ?? [];
        const last = samples.at(-1);
        if (!last || last.done !== done) {
            samples.push({ at, done });
        }

        // One sample older than the window stays: the base the rate is measured from.
        while (samples.length > 2 && samples[1]!.at <= at - RATE_WINDOW_MS) {
            samples.shift();
        }

        this.samples.set(nodeId, samples);
    }

    /**
     * Per second over the window ending `now`; null until there is a second's worth. Falls while
     * nothing moves: a stalled mail server shows as a falling rate and a growing time left.
     */
    rate(nodeId: string, now: number): number | null {
        const samples = this.samples.get(nodeId);
        if (!samples || samples.length < 2) {
            return null;
        }

        const first = samples[0]!;
        const base = first.at < now - RATE_WINDOW_MS ? { at: now - RATE_WINDOW_MS, done: interpolate(samples, now - RATE_WINDOW_MS) } : first;
        const elapsed = now - base.at;
        return elapsed < 1000 ? null : ((samples.at(-1)!.done - base.done) * 1000) / elapsed;
    }
}

/** The count at `at`, between the samples around it. */
const interpolate = (samples: { at: number; done: number }[], at: number): number => {
    for (let i = 1; i < samples.length; i++) {
        const [a, b] = [samples[i - 1]!, samples[i]!];
        if (b.at >= at) {
            return a.done + ((b.done - a.done) * (at - a.at)) / Math.max(1, b.at - a.at);
        }
    }

    return samples.at(-1)!.done;
};

const bar = (io: Io, fraction: number): string => {
    const filled = Math.max(0, Math.min(BAR_WIDTH, Math.round(fraction * BAR_WIDTH)));
    return `[${green(io, '█'.repeat(filled))}${'░'.repeat(BAR_WIDTH - filled)}]`;
};

/** Whole seconds left, as people read them: `42s`, `3m10s`, `2h05m`. */
const eta = (ms: number): string => {
    const seconds = Math.ceil(ms / 1000);
    if (seconds < 60) return `${seconds}s`;
    if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
    return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
};

const perSecond = (rate: number): string => (rate >= 10 ? `${Math.round(rate)}/s` : `${rate.toFixed(1)}/s`);

/** `send (OUTPUT) [████░░░░] 120/516 e-mails · 40/s · ETA 10s` (`· waiting: …` while held up), or null for a node with no count. */
export const progressLine = (io: Io, node: RunNode, meter: Meter, now: number): string | null => {
    const counts = countsOf(node);
    if (!counts) {
        return null;
    }

    const label = inline(`${node.nodeId} (${node.type})`);
    const rate = meter.rate(node.nodeId, now);
    const parts = [counts.total === null ? `${counts.done} ${counts.unit}` : `${counts.done}/${counts.total} ${counts.unit}`];
    if (rate !== null) {
        parts.push(perSecond(rate));
        if (counts.total !== null && counts.done < counts.total) {
            parts.push(rate > 0 ? `ETA ${eta(((counts.total - counts.done) / rate) * 1000)}` : 'ETA -');
        }
    }

    // Why an OUTPUT node is held up (the relay is down, say), as the plain display says it too.
    const waiting = node.type === 'OUTPUT' ? (node.output as Figures)?.waiting : undefined;
    if (typeof waiting === 'string') {
        parts.push(inline(`waiting: ${waiting}`));
    }

    const shown = counts.total === null ? '' : `${bar(io, counts.total === 0 ? 1 : counts.done / counts.total)} `;
    return `${label} ${shown}${parts.join(' · ')}`;
};
