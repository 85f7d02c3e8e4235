import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { prepared } from '../src/store/prepared.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * After a database error node-postgres' pool throws the connection away and opens another. On the
 * embedded store every connection reaches the same PGlite session, which still holds the named
 * statements of the connection that went away.
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
});
