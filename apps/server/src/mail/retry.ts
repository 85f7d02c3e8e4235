import { setTimeout as sleep } from 'node:timers/promises';

import { isTemporary } from './smtp-errors.js';

export interface RetryPolicy {
    /** Attempts at most, the first included. */
    attempts: number;
    /** No attempt starts later than this after the first one. */
    forMs: number;
    /** The wait before the second attempt; it doubles for each next one, up to MAX_DELAY_MS. */
    delayMs: number;
}

const MAX_DELAY_MS = 30_000;

/**
 * Runs `attempt` until it succeeds, fails for good (not a temporary failure), or the policy's
 * attempts or time run out; the last error is thrown with how long it was tried. An abort of
 * `signal` stops the waiting at once. `pausedMs`: time that counts for nothing (the message waited for
 * the relay as a whole to come back, see relay-state.ts).
 */
export const retrying = async <T>(attempt: () => Promise<T>, policy: RetryPolicy, signal?: AbortSignal, pausedMs: () => number = () => 0): Promise<T> => {
    const started = Date.now();
    const elapsed = () => Date.now() - started - pausedMs();
    let delay = policy.delayMs;
    for (let tried = 1; ; tried++) {
        try {
            return await attempt();
        } catch (err) {
            signal?.throwIfAborted();
            if (!isTemporary(err)) {
                throw err;
            }

            if (tried >= policy.attempts || elapsed() + delay > policy.forMs) {
                if (tried > 1 && err instanceof Error) {
                    err.message += ` (gave up after ${tried} attempts over ${Math.round(elapsed() / 1000)} s)`;
                }

                throw err;
            }
        }

        await sleep(delay, undefined, { signal }).catch(() => signal?.throwIfAborted());
        delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
};
