import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { migrate } from '../src/store/migrate.js';
import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';

// Migration 034 on a store whose suppression keys were made before suppressionKey() normalised to NFC:
// a key stored decomposed is re-keyed, so a send (which looks the composed key up) finds it; where an
// account has both forms of one address, one row stays.

const composed = 'zo\u00EB@unicode.test';
const decomposed = 'zoe\u0308@unicode.test';

describe('migration 034 on an earlier store', () => {
    let t: TestServer;

    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('re-keys decomposed keys in NFC, keeping one row per address and account, and leaves other keys as they are', async () => {
        const db = t.app.ctx.db;
        const one = await createAccount(t);
        const two = await createAccount(t);
        const insert = (accountId: string, key: string, reason: string) =>
            db.query("INSERT INTO suppressions (account_id, email_key, email, reason, created_at) VALUES ($1, $2, $2, $3, now() - interval '1 day')", [accountId, key, reason]);
        await insert(one.accountId, decomposed, 'unsubscribed');
        await insert(one.accountId, 'ana@unicode.test', 'manual');
        await insert(two.accountId, decomposed, 'bounced');
        await insert(two.accountId, composed, 'complained');
        await db.query('DELETE FROM schema_migrations WHERE id = 34');

        expect(await migrate(db)).toEqual(['034-suppression-keys-nfc']);

        const rows = await db.query<{ account_id: string; email_key: string; email: string; reason: string }>(
            'SELECT account_id, email_key, email, reason FROM suppressions WHERE account_id = ANY($1) ORDER BY account_id, email_key',
            [[one.accountId, two.accountId]]
        );
        const of = (accountId: string) => rows.filter((r) => r.account_id === accountId).map((r) => [r.email_key, r.email, r.reason]);
        // The address as it was given stays as it was: only the key changes.
        expect(of(one.accountId)).toEqual([
            ['ana@unicode.test', 'ana@unicode.test', 'manual'],
            [composed, decomposed, 'unsubscribed']
        ]);
        expect(of(two.accountId)).toEqual([[composed, composed, 'complained']]);

        const listed = await t.request({ method: 'DELETE', url: `/api/suppressions/${encodeURIComponent(decomposed)}`, headers: one.headers });
        expect(listed.statusCode).toBe(204);
    });
});
