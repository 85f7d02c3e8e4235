import { afterEach, describe, expect, it, vi } from 'vitest';

import { AiLimiter, parseDuration, retryAfterMs } from './limiter.js';

describe('provider waits', () => {
    it('reads seconds and the Go-style durations of x-ratelimit-reset-*', () => {
        expect(parseDuration('12')).toBe(12_000);
        expect(parseDuration('0.5')).toBe(500);
        expect(parseDuration('20ms')).toBe(20);
        expect(parseDuration('1.5s')).toBe(1_500);
        expect(parseDuration('6m0s')).toBe(360_000);
        expect(parseDuration('1h2m3s')).toBe(3_723_000);
        expect(parseDuration('soon')).toBeNull();
        expect(parseDuration(null)).toBeNull();
    });

    it('prefers retry-after-ms, then retry-after in seconds or as a date', () => {
        expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
        expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2_000);
        const later = retryAfterMs(new Headers({ 'retry-after': new Date(Date.now() + 60_000).toUTCString() }));
        expect(later).toBeGreaterThan(50_000);
        expect(later).toBeLessThanOrEqual(60_000);
        expect(retryAfterMs(new Headers())).toBeNull();
    });
});

describe('AiLimiter', () => {
    const live = new AbortController().signal;
    afterEach(() => {
        vi.restoreAllMocks();
    });

    it('lets a call go when the hold ends between its check and its timer (it waited for ever: a run stuck RUNNING)', async () => {
        const limiter = new AiLimiter(2);
        // The clock reads 1009 when the call checks the hold (until 1010) and 1010 when it arms its timer.
        const clock = [1000, 1000, 1000, 1009, 1010];
        vi.spyOn(Date, 'now').mockImplementation(() => (clock.length > 1 ? clock.shift()! : clock[0]!));
        limiter.throttled(10);
        let acquired = false;
        void limiter.acquire(live).then(() => {
            acquired = true;
        });
        for (let turn = 0; turn < 5 && !acquired; turn++) {
            await new Promise((resolve) => setImmediate(resolve));
        }

        expect(acquired).toBe(true);
    });


    it('halves what may be in flight on a 429 (once per hold), and grows it back one per round of replies', async () => {
        const limiter = new AiLimiter(8);
        limiter.throttled(0);
        expect(limiter.concurrency).toBe(4);
        limiter.throttled(1_000);
        limiter.throttled(1_000);
        // Several refusals of the calls that were in flight together count as one signal.
        expect(limiter.concurrency).toBe(2);
        const grown = new AiLimiter(8);
        grown.throttled(0);
        grown.throttled(0);
        expect(grown.concurrency).toBe(2);
        for (let i = 0; i < 3; i++) grown.succeeded(new Headers());
        expect(grown.concurrency).toBe(3);
        for (let i = 0; i < 100; i++) grown.succeeded(new Headers());
        expect(grown.concurrency).toBe(8);
    });

    it('lets no more than its concurrency through, and the next one when one is released', async () => {
        const limiter = new AiLimiter(2);
        await limiter.acquire(live);
        await limiter.acquire(live);
        let third = false;
        const waiting = limiter.acquire(live).then(() => {
            third = true;
        });
        await Promise.resolve();
        expect(third).toBe(false);
        limiter.release();
        await waiting;
        expect(third).toBe(true);
    });

    it('paces calls at the rate an announced window refills once few requests remain', async () => {
        const limiter = new AiLimiter(8);
        // 300 a minute, none left: one call every 200 ms.
        limiter.succeeded(new Headers({ 'x-ratelimit-limit-requests': '300', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1m0s' }));
        await limiter.acquire(live);
        let second = false;
        const waiting = limiter.acquire(live).then(() => {
            second = true;
        });
        await new Promise((resolve) => setImmediate(resolve));
        expect(second).toBe(false);
        await waiting;
        // Plenty left again: no spacing.
        limiter.succeeded(new Headers({ 'x-ratelimit-limit-requests': '300', 'x-ratelimit-remaining-requests': '250', 'x-ratelimit-reset-requests': '10s' }));
        await limiter.acquire(live);
        await limiter.acquire(live);
    });

    it('holds new calls while a window announced as used up resets, and gives up waiting on abort', async () => {
        const limiter = new AiLimiter(4);
        limiter.succeeded(new Headers({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1m0s' }));
        const stop = new AbortController();
        const waiting = limiter.acquire(stop.signal);
        stop.abort(new Error('cancelled'));
        await expect(waiting).rejects.toThrow('cancelled');
        const open = new AiLimiter(4);
        open.succeeded(new Headers({ 'x-ratelimit-remaining-requests': '3', 'x-ratelimit-reset-requests': '1m0s' }));
        await open.acquire(live);
    });
});
