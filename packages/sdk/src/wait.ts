import { AbortError, WaitTimeoutError } from './errors.js';
import type { Run } from './types.js';

export interface WaitOptions {
    /** Stop waiting (the run goes on): the promise rejects with an AbortError. */
    signal?: AbortSignal;
    /** Called with the run whenever its status or any node's status changes (and with the first state seen). */
    onUpdate?: (run: Run) => void;
    /**
     * Called with every new state of the run, its figures included (e-mails sent so far, AI replies):
     * for progress displays. A server that long-polls answers each change at once.
     */
    onProgress?: (run: Run) => void;
    /** Give up after this long: the promise rejects with a WaitTimeoutError carrying the last state. No limit by default. */
    timeoutMs?: number;
}

/** One look at the run: `etag` to send as If-None-Match, `holdSeconds` for Prefer: wait. */
export type Poll = (args: { etag: string | undefined; holdSeconds: number | undefined; signal: AbortSignal | undefined }) => Promise<{
    run: Run | undefined;
    etag: string | undefined;
    /** The server said it honours `Prefer: wait` (Preference-Applied). */
    held: boolean;
}>;

// The specification's polling advice: first look 1–2 s after enqueue, then from 2 s doubling to 30 s.
export const FIRST_POLL_MS = [1000, 2000] as const;
export const POLL_START_MS = 2000;
export const POLL_MAX_MS = 30_000;
export const MAX_HOLD_SECONDS = 30;

const TERMINAL = new Set(['SUCCESS', 'FAILED', 'CANCELLED']);

const fingerprint = (run: Run) => `${run.status}|${run.nodes.map((node) => `${node.nodeId}:${node.status}`).join(',')}`;

const sleep = (ms: number, signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
            reject(signal.reason);
            return;
        }

        const onAbort = () => {
            clearTimeout(timer);
            reject(signal!.reason);
        };
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
    });

/**
 * Watches a run until it is terminal. Plain polling backs off from 2 s to 30 s (reset on each change).
 * When the server answers with an ETag and honours `Prefer: wait`, each request is instead held by the
 * server until something changes (or up to 30 s), so a change arrives at once with few requests.
 */
export const waitForRun = async (runId: string, poll: Poll, options: WaitOptions = {}): Promise<Run> => {
    const { onUpdate, onProgress, timeoutMs } = options;
    const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
    const timeout = new AbortController();
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => timeout.abort(), timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;

    let last: Run | undefined;
    let seen: string | undefined;
    let etag: string | undefined;
    let held = false;
    let delay = POLL_START_MS;
    try {
        await sleep(FIRST_POLL_MS[0] + Math.random() * (FIRST_POLL_MS[1] - FIRST_POLL_MS[0]), signal);
        for (;;) {
            // Asked on every request: a server that holds requests says so in its answer (Preference-Applied).
            const holdSeconds = Math.max(1, Math.min(MAX_HOLD_SECONDS, Math.floor((deadline - Date.now()) / 1000)));
            const answer = await poll({ etag, holdSeconds, signal });
            etag = answer.etag ?? etag;
            held = answer.held && etag !== undefined;
            if (answer.run) {
                last = answer.run;
                const now = fingerprint(answer.run);
                if (now !== seen) {
                    seen = now;
                    delay = POLL_START_MS;
                    onUpdate?.(answer.run);
                }

                onProgress?.(answer.run);

                if (TERMINAL.has(answer.run.status)) {
                    return answer.run;
                }
            }

            if (!held) {
                await sleep(delay, signal);
                delay = Math.min(delay * 2, POLL_MAX_MS);
            }
        }
    } catch (err) {
        if (options.signal?.aborted) {
            throw new AbortError(`Stopped waiting for run ${runId}: aborted`, { cause: options.signal.reason });
        }

        if (timeout.signal.aborted) {
            throw new WaitTimeoutError(`Run ${runId} did not finish within ${timeoutMs} ms (last status: ${last?.status ?? 'unknown'}); it goes on`, last);
        }

        throw err;
    } finally {
        clearTimeout(timer);
    }
};
