import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createWindowCounter } from '../src/services/window-counter.js';
import { createDb } from '../src/store/db.js';
import { rateLimitsStore } from '../src/store/rate-limits.js';
import { startTestServer, type TestServer } from './harness.js';

const MINUTE = 60_000;

describe('window counter', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    /** A clock the test moves; starts 10 s into a window. */
    const clock = (start = 1_000 * MINUTE + 10_000) => {
        let at = start;
        return { now: () => at, advance: (ms: number) => (at += ms) };
    };

    const remaining = (results: { remaining: number; blocked: boolean }[]) => results.map((r) => (r.blocked ? 'blocked' : r.remaining));

    it('counts exactly in one process and starts over when the window ends', () => {
        const time = clock();
        const counter = createWindowCounter({ keyPrefix: 'test-a', points: 3, windowMs: MINUTE, now: time.now });
        const first = Array.from({ length: 5 }, () => counter.consume('k'));
        expect(remaining(first)).toEqual([2, 1, 0, 'blocked', 'blocked']);
        expect(first[3]!.resetMs).toBe(50_000);
        expect(counter.consume('other').remaining).toBe(2);

        time.advance(50_000);
        expect(remaining([counter.consume('k')])).toEqual([2]);
    });

    it('shares counts between processes through the store, one statement per flush', async () => {
        const store = rateLimitsStore(t.app.ctx.db);
        const time = clock();
        const options = { keyPrefix: 'test-b', points: 10, windowMs: MINUTE, store, now: time.now };
        const a = createWindowCounter(options);
        const b = createWindowCounter(options);

        for (let i = 0; i < 6; i++) {
            expect(a.consume('k').blocked).toBe(false);
        }

        await a.flush();
        const [row] = await t.app.ctx.db.query<{ points: number; expire: string }>("SELECT points, expire FROM rate_limits WHERE key = 'test-b:k'");
        expect(row).toEqual({ points: 6, expire: 1_001 * MINUTE });

        // B has not heard of A's six until its own first flush answers with the shared total.
        expect(b.consume('k').remaining).toBe(9);
        await b.flush();
        expect(remaining([b.consume('k'), b.consume('k'), b.consume('k'), b.consume('k')])).toEqual([2, 1, 0, 'blocked']);
        await b.flush();
        await a.flush();
        expect(a.consume('k').blocked).toBe(false);
        await a.flush();
        expect(a.consume('k').blocked).toBe(true);

        // The next window starts from zero in memory and in the store, where the old row is replaced.
        time.advance(MINUTE);
        expect(a.consume('k').remaining).toBe(9);
        await a.flush();
        const [next] = await t.app.ctx.db.query<{ points: number; expire: string }>("SELECT points, expire FROM rate_limits WHERE key = 'test-b:k'");
        expect(next).toEqual({ points: 1, expire: 1_002 * MINUTE });
    });

    it('keeps a newer window that another process already wrote', async () => {
        const store = rateLimitsStore(t.app.ctx.db);
        await store.add([{ key: 'test-c:k', points: 4, expire: 1_002 * MINUTE }]);
        const [kept] = await store.add([{ key: 'test-c:k', points: 1, expire: 1_001 * MINUTE }]);
        expect(kept).toEqual({ key: 'test-c:k', points: 4, expire: 1_002 * MINUTE });
        await store.prune(1_003 * MINUTE);
        expect(await t.app.ctx.db.query("SELECT key FROM rate_limits WHERE key LIKE 'test-c:%'")).toEqual([]);
    });

    it('goes on counting in the process when the store cannot be reached', async () => {
        const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 500 });
        pool.on('error', () => {});
        const warnings: string[] = [];
        const log = { warn: (_fields: unknown, message: string) => warnings.push(message) } as never;
        const counter = createWindowCounter({ keyPrefix: 'test-d', points: 2, windowMs: MINUTE, store: rateLimitsStore(createDb(pool)), log });

        expect(counter.consume('k').blocked).toBe(false);
        await counter.flush();
        expect(remaining([counter.consume('k'), counter.consume('k')])).toEqual([0, 'blocked']);
        expect(warnings).toEqual(['rate-limit counters could not be shared; counting in this process']);
        await pool.end();
    });
});
