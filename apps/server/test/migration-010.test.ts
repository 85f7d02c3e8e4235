import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { newId } from '../src/ids.js';
import { migrate } from '../src/store/migrate.js';
import { startTestServer, type TestServer } from './harness.js';

// Migration 010 on a store made by an earlier version: live refresh-token families become sessions
// (their clients refresh into access tokens that name them), ended ones do not, and API tokens made
// without an expiry get the default 90 days.

describe('migration 010 on an earlier store', () => {
    let t: TestServer;

    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('turns live refresh-token families into sessions and gives never-expiring API tokens 90 days', async () => {
        const db = t.app.ctx.db;
        // Back to the schema before 010.
        await db.query('DROP TABLE sessions');
        await db.query('DROP TABLE resend_cooldowns');
        await db.query('ALTER TABLE accounts DROP COLUMN password_unset');
        await db.query('DELETE FROM schema_migrations WHERE id = 10');

        const accountId = newId('acct');
        await db.query(
            `INSERT INTO accounts (id, email, email_key, full_name, password_hash, verified_at)
             VALUES ($1, 'old@example.test', 'old@example.test', 'Old', 'not-a-login', now())`,
            [accountId]
        );
        const live = newId('rt');
        const ended = newId('rt');
        const signedIn = new Date(Date.now() - 3_600_000);
        const future = new Date(Date.now() + 86_400_000);
        for (const [family, revoked, n] of [
            [live, null, 2],
            [ended, new Date(), 1]
        ] as const) {
            for (let i = 0; i < n; i++) {
                await db.query(
                    `INSERT INTO refresh_tokens (id, account_id, family_id, token_hash, expires_at, revoked_at, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
                    [newId('rt'), accountId, family, newId('rt'), future, revoked, new Date(signedIn.getTime() + i * 60_000)]
                );
            }
        }
        await db.query(
            `INSERT INTO api_tokens (id, account_id, name, token_hash, prefix, created_at, expires_at)
             VALUES ($1, $2, 'forever', $3, 'flc_abcdef', now(), NULL)`,
            [newId('tok'), accountId, newId('tok')]
        );

        expect(await migrate(db)).toEqual(['010-sessions']);

        const sessions = await db.query<{ id: string; signed_in_at: Date; ended_at: Date | null }>('SELECT id, signed_in_at, ended_at FROM sessions WHERE account_id = $1', [accountId]);
        expect(sessions).toEqual([{ id: live, signed_in_at: signedIn, ended_at: null }]);

        const token = await db.one<{ expires_at: Date }>('SELECT expires_at FROM api_tokens WHERE account_id = $1', [accountId]);
        const days = (token!.expires_at.getTime() - Date.now()) / 86_400_000;
        expect(days).toBeGreaterThan(89.9);
        expect(days).toBeLessThanOrEqual(90);

        const account = await db.one<{ password_unset: boolean }>('SELECT password_unset FROM accounts WHERE id = $1', [accountId]);
        expect(account!.password_unset).toBe(false);
    });
});
