import { LeaseLost } from './lease.js';

/**
 * Runs given up after this many interruptions in a row in which their worker sent no new e-mail
 * (a crash loop). An interruption that made progress is not a strike, however many there are.
 */
export const MAX_STRIKES = 3;

/** What a process knows about an interruption it survived; a process that was killed knows nothing. */
export const WORKER_STOPPED = 'its worker stopped (killed, or crashed)';

/** Runs whose last interruption a process remembers at most (another process may resume them). */
const REMEMBERED = 10_000;

/** Remembers why an attempt at a run stopped, for the attempt that resumes it in this process. */
export const noteInterruption = (interruptions: Map<string, string>, runId: string, err: unknown): void => {
    if (interruptions.size >= REMEMBERED) {
        // Insertion order: the oldest note is of a run most likely resumed elsewhere long ago.
        interruptions.delete(interruptions.keys().next().value as string);
    }

    interruptions.set(runId, describeInterruption(err));
};

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', '57P01', '57P02', '57P03']);

const codeOf = (err: unknown): string => String((err as { code?: unknown })?.code ?? '');

/** Names, as far as the error tells, why an attempt at a run stopped: for the message of a run given up. */
export const describeInterruption = (err: unknown): string => {
    const seen = new Set<unknown>();
    // Our own wrappers keep the store's error as the cause, or only in the message.
    for (let e = err; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
        seen.add(e);
        const code = codeOf(e);
        const message = e instanceof Error ? e.message : String(e);
        if (code === 'ENOSPC' || code === '53100' || /no space left on device|disk full/i.test(message)) {
            return 'the disk is full: the store could not write';
        }

        if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || /connection terminated|connect ECONNREFUSED|timeout|timed out|the database system is/i.test(message)) {
            return `the store was unreachable (${message})`;
        }
    }

    if (err instanceof LeaseLost) {
        return 'its worker lost the lease (it was paused, or the store answered too slowly)';
    }

    return `the store failed (${err instanceof Error ? err.message : String(err)})`;
};
