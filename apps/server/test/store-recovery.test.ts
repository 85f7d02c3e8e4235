import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { prepared } from '../src/store/prepared.js';
import { startTestServer, store, type TestServer } from './harness.js';

/**
 * After a database error node-postgres' pool throws the connection away and opens another. On the
 * embedded store every connection reaches the same PGlite session, which keeps the named statements
 * of a connection that went away, and which the others share (store/db.ts).
 */
describe('the store after a failed statement', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    const echo = async (value: string) => (await prepared<{ v: string }>(t.app.ctx.db, 'flowctl_test_echo', 'SELECT $1::text AS v', [value]))[0]!.v;

    it('answers the same prepared statements again, every time', async () => {
        expect(await echo('before')).toBe('before');
        for (let attempt = 0; attempt < 3; attempt++) {
            // PostgreSQL refuses NUL in text: a database error, like any bad value that slips through.
            await expect(echo('nul \u0000 byte')).rejects.toMatchObject({ code: '22021' });
            expect(await echo(`after ${attempt}`)).toBe(`after ${attempt}`);
            expect(await t.app.ctx.db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
        }
    });

    it('keeps transactions working after a failed one', async () => {
        await expect(t.app.ctx.db.tx((tx) => tx.query('SELECT $1::text', ['\u0000']))).rejects.toMatchObject({ code: '22021' });
        expect(await t.app.ctx.db.tx((tx) => tx.one<{ v: string }>('SELECT $1::text AS v', ['inside']))).toEqual({ v: 'inside' });
        expect(await echo('outside')).toBe('outside');
    });

    it('reports a store whose statements fail on /readyz, and is ready again without a restart', async () => {
        // A session holds a statement of that name that its client does not know about. Embedded: the one
        // session every connection shares, as when a connection went away after its Parse ran but before
        // the answer came. PostgreSQL: every idle connection's own, as after a failed request.
        const { pool } = t.app.ctx.db;
        const clients = await Promise.all(Array.from({ length: store === 'embedded' ? 1 : pool.totalCount }, () => pool.connect()));
        try {
            for (const client of clients) {
                await client.query('PREPARE flowctl_readiness_probe AS SELECT 1 AS ok');
            }
        } finally {
            for (const client of clients) {
                client.release();
            }
        }

        const broken = await t.request({ method: 'GET', url: '/readyz' });
        expect(broken.statusCode).toBe(503);
        expect(broken.json.message).toBe('The database does not answer, or cannot write');

        const statuses = [];
        for (let attempt = 0; attempt <= clients.length && statuses.at(-1) !== 200; attempt++) {
            statuses.push((await t.request({ method: 'GET', url: '/readyz' })).statusCode);
        }
        expect(statuses.at(-1)).toBe(200);
    });
});
