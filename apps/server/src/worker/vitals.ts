import Os from 'node:os';
import V8 from 'node:v8';

import type { Vitals } from '../store/leases.js';

export type { Vitals };

// Crash loops end (issue 19 §5). Every lease renewal records how close its process is to its memory
// limits and how late the heartbeat came. A process that dies of out-of-memory leaves a last record
// near its limit; the worker that takes its run over reads that record, and fails the run at once
// instead of loading it again (and dying too).

/**
 * The heap used is near its limit from 85 %. V8 exits with "JavaScript heap out of memory" once its
 * old generation cannot grow; before that it collects again and again, and the heartbeat's write
 * barely gets through: the last record that reached the store was measured at 89 % (a 96 MB heap
 * filled with rows, a heartbeat every 333 ms, on a loaded machine), while the heap was at 94 % when
 * the process died. A healthy process seldom shows 85 %: as the heap nears its limit V8 collects
 * sooner and harder, so garbage does not pile up that high, and RUN_MEMORY_MB keeps runs well below.
 */
export const NEAR_LIMIT = 0.85;

/**
 * The event loop was held so long that the lease could expire (other workers count the worker as
 * dead) and, with a floor, longer than anything a healthy run does: rows are parsed and filtered in
 * slices of about 8 ms, and a full collection of a large heap on a loaded machine takes a few seconds.
 */
export const STALL_FLOOR_MS = 5_000;

export const stallLimitMs = (leaseMs: number): number => Math.max(leaseMs, STALL_FLOOR_MS);

const MB = 1024 * 1024;

/** The last `--max-old-space-size` (MB) in the process's flags or NODE_OPTIONS, if any. */
export const oldSpaceFlagMb = (args: string[]): number | null => {
    let found: number | null = null;
    for (let i = 0; i < args.length; i++) {
        const match = /^--max[-_]old[-_]space[-_]size(?:=(\d+))?$/.exec(args[i] ?? '');
        const value = match ? Number(match[1] ?? args[i + 1]) : Number.NaN;
        if (Number.isFinite(value) && value > 0) {
            found = value;
        }
    }

    return found;
};

/**
 * V8 dies when its old generation cannot grow: given with --max-old-space-size, that is the limit.
 * Without it, heap_size_limit also counts the young generation's reserve (192 MB on Node 24), small
 * beside a default limit of several GB: the ratio then reads a little low, never high.
 */
const heapLimit = (): number => {
    const flag = oldSpaceFlagMb([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]);
    return flag ? flag * MB : V8.getHeapStatistics().heap_size_limit;
};

/** A container's memory limit; unconstrained, Node answers a huge number (or 0). */
const memoryLimit = (): number | null => {
    const limit = process.constrainedMemory?.() ?? 0;
    return limit > 0 && limit < Os.totalmem() ? limit : null;
};

const HEAP_LIMIT = heapLimit();
const MEMORY_LIMIT = memoryLimit();

/**
 * How often the heap is looked at while a run builds rows. A load can take the heap from 70 % to its
 * limit between two heartbeats (seen: 72.8 % at the last record, on a loaded machine, with a beat every
 * 333 ms); the first look that finds it near records so at once (drain.ts), so the record a dead
 * process leaves says what killed it whatever the heartbeat's pace.
 */
export const NEAR_WATCH_MS = 20;

/** Whether a record shows the heap, or the process's memory, near its limit. */
export const isNear = (vitals: Pick<Vitals, 'heapUsed' | 'heapLimit' | 'rss' | 'memoryLimit'>): boolean =>
    (vitals.heapLimit > 0 && vitals.heapUsed >= NEAR_LIMIT * vitals.heapLimit) ||
    (vitals.memoryLimit !== null && vitals.memoryLimit > 0 && vitals.rss >= NEAR_LIMIT * vitals.memoryLimit);

/** Whether this process is near its memory limits now: a few microseconds. */
export const nearNow = (): boolean =>
    isNear({ heapUsed: V8.getHeapStatistics().used_heap_size, heapLimit: HEAP_LIMIT, rss: MEMORY_LIMIT === null ? 0 : process.memoryUsage.rss(), memoryLimit: MEMORY_LIMIT });

/** This process now: a handful of microseconds, taken once per heartbeat. */
export const sampleVitals = (runId: string | null, lateMs: number, runs: number, loading: boolean): Vitals => ({
    runId,
    heapUsed: V8.getHeapStatistics().used_heap_size,
    heapLimit: HEAP_LIMIT,
    rss: process.memoryUsage.rss(),
    memoryLimit: MEMORY_LIMIT,
    lateMs: Math.max(0, Math.round(lateMs)),
    runs,
    loading
});

export interface Verdict {
    kind: 'out-of-memory' | 'stalled';
    /** What happened, with the figures: "its worker ran out of memory while running it (…)". */
    what: string;
    /** What to change. */
    advice: string;
}

const n = (value: number): string => value.toLocaleString('en-US');
const mb = (bytes: number): string => n(Math.round(bytes / MB));

/**
 * Whether the previous attempt at a run, which died (its lease expired, nothing handed back), took
 * its worker down: its last record shows the heap or the process's memory near the limit (a probable
 * out-of-memory exit), or the event loop held for longer than `stallMs`. Null for an ordinary kill,
 * which keeps the strike rule. A process that ran other runs too is only blamed on a run that was
 * building rows then: a run waiting on its e-mails did not fill the heap.
 */
export const judgeTakeover = (vitals: Vitals | null, stallMs: number): Verdict | null => {
    if (!vitals) {
        return null;
    }

    const near = isNear(vitals);
    const stalled = vitals.lateMs >= stallMs;
    if ((!near && !stalled) || (vitals.runs > 1 && !vitals.loading)) {
        return null;
    }

    const others = vitals.runs > 1 ? ` and ${vitals.runs - 1} other run${vitals.runs > 2 ? 's' : ''}` : '';
    if (near) {
        const heapNear = vitals.heapLimit > 0 && vitals.heapUsed >= NEAR_LIMIT * vitals.heapLimit;
        const figures = heapNear
            ? `heap ${mb(vitals.heapUsed)} of ${mb(vitals.heapLimit)} MB, RSS ${mb(vitals.rss)} MB`
            : `RSS ${mb(vitals.rss)} of ${mb(vitals.memoryLimit ?? 0)} MB allowed to the process`;
        return {
            kind: 'out-of-memory',
            what: `its worker ran out of memory while running it${others} (${figures} at its last heartbeat)`,
            advice:
                'Split the upload into smaller ones, have fewer nodes read its rows, or lower RUN_MEMORY_MB so that such a run fails before it loads ' +
                '(or give the worker more memory, e.g. NODE_OPTIONS=--max-old-space-size)'
        };
    }

    return {
        kind: 'stalled',
        what: `its worker stopped answering while running it${others} (its event loop was held for ${n(Math.round(vitals.lateMs / 1000))} s at its last heartbeat, longer than its lease)`,
        advice: 'Split the upload into smaller ones or have fewer nodes read its rows'
    };
};
