import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';

import { createDb, createPool, type Db } from '../src/store/db.js';
import { EMBEDDED_CONNECTIONS, type EmbeddedPostgres, startEmbedded } from '../src/store/embedded.js';
import { preparedOne } from '../src/store/prepared.js';

// The embedded database in its own thread, reached by several connections to its one session
// (store/embedded.ts, thread-socket.ts, db.ts). On the embedded store whatever store this project tests.
describe('the embedded database thread', () => {
    let dataDir: string;
    let embedded: EmbeddedPostgres;
    let pool: pg.Pool;
    let db: Db;

    beforeAll(async () => {
        dataDir = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-thread-'));
        await Fs.cp(inject('pgTemplate'), Path.join(dataDir, 'pg'), { recursive: true });
        embedded = await startEmbedded(dataDir);
        pool = createPool(embedded.connect, EMBEDDED_CONNECTIONS, { sharedSession: true });
        db = createDb(pool);
    });
    afterAll(async () => {
        await pool.end();
        await embedded.stop();
        await Fs.rm(dataDir, { recursive: true, force: true });
    });

    it('prepares a statement once for every connection, even when all first use it at once', async () => {
        const answers = await Promise.all(
            Array.from({ length: 4 * EMBEDDED_CONNECTIONS }, (_, i) => preparedOne<{ v: number }>(db, 'flowctl_test_at_once', 'SELECT $1::int AS v', [i]))
        );
        expect(answers.map((row) => row?.v)).toEqual(Array.from({ length: 4 * EMBEDDED_CONNECTIONS }, (_, i) => i));
        expect(pool.totalCount).toBe(EMBEDDED_CONNECTIONS);
        const [{ count }] = (await pool.query<{ count: number }>("SELECT count(*)::int AS count FROM pg_prepared_statements WHERE name = 'flowctl_test_at_once'")).rows as [
            { count: number }
        ];
        expect(count).toBe(1);
    });

    it('keeps a transaction’s statements together while other connections send theirs', async () => {
        await db.query('CREATE TABLE IF NOT EXISTS thread_test (n int)');
        const outside: Promise<unknown>[] = [];
        const seen = await db.tx(async (tx) => {
            await tx.query('INSERT INTO thread_test VALUES (1)');
            // Sent while the transaction is open, on other connections: they wait for its end.
            for (let i = 0; i < EMBEDDED_CONNECTIONS; i++) {
                outside.push(db.query('INSERT INTO thread_test VALUES (2)'));
            }

            await new Promise((resolve) => setTimeout(resolve, 50));
            return tx.one<{ twos: number }>('SELECT count(*) FILTER (WHERE n = 2)::int AS twos FROM thread_test');
        });
        expect(seen?.twos).toBe(0);
        await Promise.all(outside);
        expect(await db.one('SELECT count(*)::int AS n FROM thread_test')).toEqual({ n: 1 + EMBEDDED_CONNECTIONS });
    });

    it("answers on the server's thread while a statement computes", async () => {
        let turns = 0;
        const ticker = setInterval(() => turns++, 5);
        try {
            // Long enough on any machine for several 5 ms timers: with PGlite in this thread, none would
            // fire before the statement's answer.
            await db.query('SELECT count(*) FROM generate_series(1, 3000000)');
        } finally {
            clearInterval(ticker);
        }

        expect(turns).toBeGreaterThan(2);
    });
});
