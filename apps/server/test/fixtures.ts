import Crypto from 'node:crypto';

import { issueAccessToken } from '../src/services/tokens.js';
import { newId } from '../src/ids.js';
import { insertSession } from '../src/store/sessions.js';
import type { TestServer } from './harness.js';

export interface TestAccount {
    accountId: string;
    email: string;
    token: string;
    headers: { authorization: string };
}

/**
 * A verified account written straight into the real store, with a valid access token. Suites that
 * are not about sign-up use it; the accounts suite goes through register and verify-email instead.
 */
export const createAccount = async (t: TestServer, email = `user-${Crypto.randomBytes(4).toString('hex')}@example.test`): Promise<TestAccount> => {
    const accountId = newId('acct');
    await t.app.ctx.db.query(
        `INSERT INTO accounts (id, email, email_key, full_name, password_hash, verified_at)
         VALUES ($1, $2, $3, 'Test User', 'not-a-login', now())`,
        [accountId, email, email.toLowerCase()]
    );

    // Every access token belongs to a live session: this one signed in just now.
    const sessionId = newId('rt');
    await insertSession(t.app.ctx.db, { id: sessionId, accountId, signedInAt: new Date() });
    const token = issueAccessToken(t.app.ctx.secrets.jwtSecret, accountId, sessionId);
    return { accountId, email, token, headers: { authorization: `Bearer ${token}` } };
};
