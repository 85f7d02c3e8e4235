import { describe, expect, it } from 'vitest';

import { DrainWakes } from './drain-wakes.js';

const never = new AbortController().signal;
/** Long enough never to end a test: every case settles the linger otherwise. */
const LONG_MS = 60_000;

describe('drain wakes', () => {
    it('a wake that comes while the drain is busy is kept for its next linger', async () => {
        const wakes = new DrainWakes();
        const waker = wakes.open('wf_1');
        wakes.wake('wf_1');
        expect(await waker.linger(LONG_MS, never)).toBe('woken');
        waker.close();
    });

    it('wakes the lingering drain of that workflow only', async () => {
        const wakes = new DrainWakes();
        const one = wakes.open('wf_1');
        const two = wakes.open('wf_2');
        const lingering = one.linger(LONG_MS, never);
        wakes.wake('wf_2');
        wakes.wake('wf_1');
        expect(await lingering).toBe('woken');
        expect(await two.linger(LONG_MS, never)).toBe('woken');
        one.close();
        two.close();
    });

    it('a linger ends when the lease is lost, or when the drains are dismissed', async () => {
        const wakes = new DrainWakes();
        const waker = wakes.open('wf_1');
        const lost = new AbortController();
        const lingering = waker.linger(LONG_MS, lost.signal);
        lost.abort();
        expect(await lingering).toBe('dismissed');

        const again = waker.linger(LONG_MS, never);
        wakes.dismissAll();
        expect(await again).toBe('dismissed');
        waker.close();
    });

    it('a linger with nothing enqueued times out; a closed drain is woken no more', async () => {
        const wakes = new DrainWakes();
        const waker = wakes.open('wf_1');
        expect(await waker.linger(1, never)).toBe('timeout');
        waker.close();
        wakes.wake('wf_1');
        // The next drain of the workflow starts with no wake left over from the last one.
        const next = wakes.open('wf_1');
        expect(await next.linger(1, never)).toBe('timeout');
        next.close();
    });
});
