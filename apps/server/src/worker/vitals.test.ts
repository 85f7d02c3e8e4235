import { describe, expect, it } from 'vitest';

import { judgeTakeover, NEAR_LIMIT, oldSpaceFlagMb, STALL_FLOOR_MS, stallLimitMs, type Vitals } from './vitals.js';

const MB = 1024 * 1024;

const record = (over: Partial<Vitals> = {}): Vitals => ({
    runId: 'run_1',
    heapUsed: 400 * MB,
    heapLimit: 2048 * MB,
    rss: 600 * MB,
    memoryLimit: null,
    lateMs: 20,
    runs: 1,
    loading: true,
    ...over
});

const stallMs = stallLimitMs(3000);

describe('judgeTakeover: did the previous attempt take its worker down?', () => {
    it('blames a run whose worker was near its heap limit, with the figures and what to change', () => {
        const verdict = judgeTakeover(record({ heapUsed: 1912 * MB }), stallMs);
        expect(verdict?.kind).toBe('out-of-memory');
        expect(verdict?.what).toBe('its worker ran out of memory while running it (heap 1,912 of 2,048 MB, RSS 600 MB at its last heartbeat)');
        expect(verdict?.advice).toMatch(/^Split the upload into smaller ones, have fewer nodes read its rows, or lower RUN_MEMORY_MB/);
    });

    it('blames a run whose process was near its memory limit (a container’s)', () => {
        const verdict = judgeTakeover(record({ rss: 1900 * MB, memoryLimit: 2048 * MB }), stallMs);
        expect(verdict?.what).toBe('its worker ran out of memory while running it (RSS 1,900 of 2,048 MB allowed to the process at its last heartbeat)');
    });

    it('blames a run whose worker’s event loop was held longer than the lease', () => {
        const verdict = judgeTakeover(record({ lateMs: 12_400 }), stallMs);
        expect(verdict?.kind).toBe('stalled');
        expect(verdict?.what).toBe('its worker stopped answering while running it (its event loop was held for 12 s at its last heartbeat, longer than its lease)');
    });

    it('does not blame an ordinary kill: below the limits, or no record at all', () => {
        expect(judgeTakeover(record(), stallMs)).toBeNull();
        expect(judgeTakeover(record({ heapUsed: Math.floor((NEAR_LIMIT - 0.01) * 2048 * MB), lateMs: STALL_FLOOR_MS - 1 }), stallMs)).toBeNull();
        expect(judgeTakeover(null, stallMs)).toBeNull();
    });

    it('blames, in a process running several runs, only a run that was building rows', () => {
        const near = { heapUsed: 1950 * MB, runs: 3 };
        expect(judgeTakeover(record({ ...near, loading: false }), stallMs)).toBeNull();
        expect(judgeTakeover(record({ ...near, loading: true }), stallMs)?.what).toBe(
            'its worker ran out of memory while running it and 2 other runs (heap 1,950 of 2,048 MB, RSS 600 MB at its last heartbeat)'
        );
    });

    it('counts a stall from the lease, with a floor above what a healthy run holds the loop for', () => {
        expect(stallLimitMs(600)).toBe(STALL_FLOOR_MS);
        expect(stallLimitMs(30_000)).toBe(30_000);
    });
});

describe('oldSpaceFlagMb', () => {
    it('reads the last --max-old-space-size, in either spelling and form', () => {
        expect(oldSpaceFlagMb(['--max-old-space-size=96'])).toBe(96);
        expect(oldSpaceFlagMb(['--max_old_space_size', '512', '--enable-source-maps'])).toBe(512);
        expect(oldSpaceFlagMb(['--max-old-space-size=96', '--max-old-space-size=2048'])).toBe(2048);
        expect(oldSpaceFlagMb(['--enable-source-maps', ''])).toBeNull();
    });
});
