import type { Logger } from 'pino';

import type { RateLimitsStore } from '../store/rate-limits.js';

export interface Consumed {
    limit: number;
    remaining: number;
    resetMs: number;
    blocked: boolean;
}

export interface WindowCounter {
    /** Counts one request for `key`; `blocked` when the window's points are used up (a refusal is not counted). */
    consume(key: string): Consumed;
    /** Writes the counts not yet shared; resolves when the store has answered. */
    flush(): Promise<void>;
}

export interface WindowCounterOptions {
    keyPrefix: string;
    points: number;
    windowMs: number;
    /** Absent: counts stay in this process, which is exact when one process owns the database. */
    store?: RateLimitsStore;
    log?: Logger;
    /** How long counts may wait before they are shared with other processes. */
    flushDelayMs?: number;
    now?: () => number;
}

interface Entry {
    /** End of the entry's window, epoch ms. */
    expire: number;
    /** Hits this process has shared plus those other processes had shared, as last reported by the store. */
    shared: number;
    /** Hits counted here since the last flush. */
    pending: number;
}

const SWEEP_EVERY_MS = 60_000;

/**
 * Fixed-window request counters, aligned to the clock so every process agrees on window boundaries.
 *
 * A request is decided in memory: the store's last total for the key plus what this process counted
 * since. Counts reach the store in one statement per flush, at most `flushDelayMs` after a request,
 * rather than one upsert per request (that upsert halved the API's request rate on PostgreSQL).
 * One process is therefore exact; several may together let through what each counts in one flush
 * delay beyond the limit.
 */
export const createWindowCounter = (options: WindowCounterOptions): WindowCounter => {
    const { keyPrefix, points, windowMs, store, log, flushDelayMs = 50, now = Date.now } = options;
    const entries = new Map<string, Entry>();
    // Keys with pending hits, so a flush need not walk every key of the window.
    let dirty = new Set<string>();
    let timer: NodeJS.Timeout | null = null;
    let flushing: Promise<void> | null = null;
    let lastSweep = now();
    let warned = 0;

    const windowEnd = (at: number) => (Math.floor(at / windowMs) + 1) * windowMs;

    /** Forgets ended windows, here and in the store; true when it is time to. */
    const sweep = (at: number): boolean => {
        if (at - lastSweep < SWEEP_EVERY_MS) {
            return false;
        }

        lastSweep = at;
        for (const [key, entry] of entries) {
            if (entry.expire <= at) {
                entries.delete(key);
            }
        }

        return true;
    };

    const write = async () => {
        const at = now();
        const pruneStore = sweep(at);
        const counts = [];
        for (const key of dirty) {
            const entry = entries.get(key);
            if (entry && entry.pending > 0) {
                counts.push({ key: `${keyPrefix}:${key}`, points: entry.pending, expire: entry.expire });
                entry.shared += entry.pending;
                entry.pending = 0;
            }
        }

        dirty = new Set();

        if (!store || counts.length === 0) {
            return;
        }

        try {
            for (const total of await store.add(counts)) {
                const entry = entries.get(total.key.slice(keyPrefix.length + 1));
                if (entry && entry.expire === total.expire) {
                    entry.shared = Math.max(entry.shared, total.points);
                }
            }

            if (pruneStore) {
                await store.prune(at);
            }
        } catch (err) {
            // Counting goes on in this process; never refuse or wave through everything because of the store.
            if (at - warned >= SWEEP_EVERY_MS) {
                warned = at;
                log?.warn({ err: (err as Error).message }, 'rate-limit counters could not be shared; counting in this process');
            }
        }
    };

    const flush = async (): Promise<void> => {
        if (timer) {
            clearTimeout(timer);
            timer = null;
        }

        // One statement at a time: counts that arrive meanwhile go in the next one.
        while (flushing) {
            await flushing;
        }

        flushing = write().finally(() => {
            flushing = null;
        });
        await flushing;
    };

    return {
        consume(key) {
            const at = now();
            if (!store) {
                sweep(at);
            }

            let entry = entries.get(key);
            if (!entry || entry.expire <= at) {
                entry = { expire: windowEnd(at), shared: 0, pending: 0 };
                entries.set(key, entry);
            }

            const used = entry.shared + entry.pending;
            const resetMs = entry.expire - at;
            if (used >= points) {
                return { limit: points, remaining: 0, resetMs, blocked: true };
            }

            entry.pending++;
            if (store) {
                dirty.add(key);
                timer ??= setTimeout(() => void flush(), flushDelayMs).unref();
            }

            return { limit: points, remaining: points - used - 1, resetMs, blocked: false };
        },
        flush
    };
};
