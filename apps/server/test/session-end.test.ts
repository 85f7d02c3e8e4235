import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccountsService } from '../src/services/accounts.js';
import { revokeAccountRefreshTokens } from '../src/store/accounts.js';
import { insertApiToken } from '../src/store/api-tokens.js';
import { startTestServer, store, type TestServer } from './harness.js';
import { awayFromWindowEnd } from './rate-windows.js';
import { bearer, resetCodeFor, type SignedUp, signUp } from './sign-up.js';

// Issue 18 §1: ending a session (log-out, password reset or change, refresh-token reuse) ends its access tokens
// at once, and a credential that outlives sessions (an API token) needs a recent sign-in.

const DAY_MS = 86_400_000;

/** Everything an access token may do that an ended session must no longer do. */
const uses = (t: TestServer, accessToken: string) => [
    () => t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) }),
    () => t.request({ method: 'PUT', url: '/api/account/settings', headers: bearer(accessToken), payload: { ai: { model: 'gpt-4o-mini' } } }),
    () => t.request({ method: 'POST', url: '/api/account/tokens', headers: bearer(accessToken), payload: { name: 'after the end' } }),
    // The session before anything else: 401, not the 404 of an unknown workflow or the 400 of an id
    // longer than any.
    () => t.request({ method: 'POST', url: '/api/workflows/wf_doesnotexist/run', headers: bearer(accessToken) }),
    () => t.request({ method: 'POST', url: '/api/workflows/wf_doesnotexist/run', headers: { ...bearer(accessToken), 'idempotency-key': 'after-the-end' } }),
    () => t.request({ method: 'POST', url: `/api/workflows/${'w'.repeat(201)}/run`, headers: bearer(accessToken) })
];

const expectEnded = async (t: TestServer, accessToken: string) => {
    for (const use of uses(t, accessToken)) {
        const res = await use();
        expect(res.statusCode, res.payload).toBe(401);
        expect(res.json.message).toMatch(/session has ended.*log in again/);
    }

    const tokens = await t.request({ method: 'GET', url: '/api/account/tokens', headers: bearer(accessToken) });
    expect(tokens.statusCode).toBe(401);
};

describe('an ended session ends its access tokens at once', () => {
    let t: TestServer;
    const login = (email: string, password: string) => t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    const me = (accessToken: string) => t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) });

    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('after a password reset: every session of the account', async () => {
        const { email, password, accessToken }: SignedUp = await signUp(t);
        const other = await login(email, password);
        expect((await me(accessToken)).statusCode).toBe(200);

        expect((await t.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } })).statusCode).toBe(202);
        const otp = await resetCodeFor(t, email);
        const reset = await t.request({ method: 'POST', url: '/api/auth/reset-password', payload: { email, otp, newPassword: 'a new password, long enough' } });
        expect(reset.statusCode).toBe(204);

        await expectEnded(t, accessToken);
        await expectEnded(t, other.json.accessToken);
        const fresh = await login(email, 'a new password, long enough');
        expect((await me(fresh.json.accessToken)).statusCode).toBe(200);
    });

    it('after a password change: every other session, and their refresh tokens; this one stays', async () => {
        const { email, password, accessToken, refreshToken }: SignedUp = await signUp(t);
        const other = await login(email, password);
        const changed = await t.request({ method: 'POST', url: '/api/auth/password', headers: bearer(accessToken), payload: { newPassword: 'a changed password, long enough' } });
        expect(changed.statusCode, changed.payload).toBe(200);

        await expectEnded(t, other.json.accessToken);
        const stale = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken: other.json.refreshToken } });
        expect(stale.statusCode).toBe(401);
        expect((await me(accessToken)).statusCode).toBe(200);
        const kept = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
        expect(kept.statusCode, kept.payload).toBe(200);
        expect((await login(email, 'a changed password, long enough')).statusCode).toBe(200);
    });

    it('after a password change: the API tokens made by the sessions it ends are revoked; the answer lists those and the ones left', async () => {
        const { email, password, accessToken }: SignedUp = await signUp(t);
        const thief = await login(email, password);
        const earlier = await login(email, password);
        const mint = async (session: string, name: string) => {
            const res = await t.request({ method: 'POST', url: '/api/account/tokens', headers: bearer(session), payload: { name } });
            expect(res.statusCode, res.payload).toBe(201);
            return res.json as { id: string; token: string };
        };
        const mine = await mint(accessToken, 'mine');
        const stolen = await mint(thief.json.accessToken, 'stolen');
        // Made by a session that had ended before the change: not one the change ends, so it stays, listed.
        const older = await mint(earlier.json.accessToken, 'older');
        expect((await t.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: earlier.json.refreshToken } })).statusCode).toBe(204);

        const changed = await t.request({ method: 'POST', url: '/api/auth/password', headers: bearer(accessToken), payload: { newPassword: 'changed after a theft, long enough' } });
        expect(changed.statusCode < 300, changed.payload).toBe(true);
        expect((await me(stolen.token)).statusCode).toBe(401);
        expect((await me(mine.token)).statusCode).toBe(200);
        expect((await me(older.token)).statusCode).toBe(200);

        expect(changed.statusCode).toBe(200);
        expect(changed.json.revokedApiTokens.map((v: { id: string }) => v.id)).toEqual([stolen.id]);
        expect(changed.json.apiTokens.map((v: { id: string }) => v.id).sort()).toEqual([mine.id, older.id].sort());
        expect(changed.json.apiTokens[0]).not.toHaveProperty('token');
    });

    it('after a password change: a token made before the server recorded its session (migration 016) stays, listed', async () => {
        const { email, password, accessToken } = await signUp(t);
        const other = await login(email, password);
        const made = await t.request({ method: 'POST', url: '/api/account/tokens', headers: bearer(other.json.accessToken), payload: { name: 'from an older version' } });
        expect(made.statusCode, made.payload).toBe(201);
        await t.app.ctx.db.query('UPDATE api_tokens SET session_id = NULL WHERE id = $1', [made.json.id]);

        const changed = await t.request({ method: 'POST', url: '/api/auth/password', headers: bearer(accessToken), payload: { newPassword: 'changed once more, long enough' } });
        expect(changed.statusCode, changed.payload).toBe(200);
        expect(changed.json).toMatchObject({ revokedApiTokens: [], apiTokens: [{ id: made.json.id, name: 'from an older version' }] });
        expect((await me(made.json.token)).statusCode).toBe(200);
    });

    it('a token cannot be made by a session that has ended, even one whose access token was already checked', async () => {
        const { email, password } = await signUp(t);
        const other = await login(email, password);
        const sid = JSON.parse(Buffer.from(other.json.accessToken.split('.')[1], 'base64url').toString()).sid as string;
        const accountId = (await me(other.json.accessToken)).json.id as string;
        expect((await t.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: other.json.refreshToken } })).statusCode).toBe(204);

        // The request passed the session check, then a password change ended the session before the insert.
        await expect(t.app.services.apiTokens.create(accountId, { name: 'late', sessionId: sid })).rejects.toMatchObject({
            output: { statusCode: 401, payload: { message: expect.stringMatching(/session has ended/) } }
        });
        expect((await t.app.ctx.db.query('SELECT 1 FROM api_tokens WHERE account_id = $1', [accountId])).length).toBe(0);
    });

    it('after log-out: that session only', async () => {
        const { email, password, accessToken, refreshToken } = await signUp(t);
        const other = await login(email, password);
        const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
        const graph = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
        const { workflowId } = (await t.request({ method: 'POST', url: '/api/workflows', headers: bearer(accessToken), payload: { name: 'W', graph } })).json;
        const enqueue = (token: string) => t.request({ method: 'POST', url: `/api/workflows/${workflowId}/run`, headers: bearer(token) });
        expect((await enqueue(refreshed.json.accessToken)).statusCode).toBe(202);

        expect((await t.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: refreshed.json.refreshToken } })).statusCode).toBe(204);

        // Both the access token from before the refresh and the one it was exchanged for.
        await expectEnded(t, accessToken);
        await expectEnded(t, refreshed.json.accessToken);
        expect((await me(other.json.accessToken)).statusCode).toBe(200);
        // The ended session's token enqueues nothing; the other session's still does.
        expect((await enqueue(refreshed.json.accessToken)).statusCode).toBe(401);
        expect((await enqueue(other.json.accessToken)).statusCode).toBe(202);
        const runs = await t.request({ method: 'GET', url: `/api/workflows/${workflowId}/runs`, headers: bearer(other.json.accessToken) });
        expect(runs.json).toHaveLength(2);
    });

    // Someone holding a token whose session was ended (a stolen one, logged out) must not spend the
    // account's request budget: that would lock its owner out for the token's last 15 minutes.
    it("an ended session's requests do not count against its account's rate limit", async () => {
        const limited = await startTestServer({ config: { rateLimit: { perIp: 10_000, perAccount: 5, perHook: 10, windowSeconds: 60, mailPerIp: 20 } } });
        try {
            const { email, password, accessToken, refreshToken } = await signUp(limited);
            const graph = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
            const { workflowId } = (await limited.request({ method: 'POST', url: '/api/workflows', headers: bearer(accessToken), payload: { name: 'W', graph } })).json;
            expect((await limited.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } })).statusCode).toBe(204);
            for (let i = 0; i < 10; i++) {
                expect((await limited.request({ method: 'POST', url: `/api/workflows/${workflowId}/run`, headers: bearer(accessToken) })).statusCode).toBe(401);
            }

            const owner = (await limited.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).json.accessToken;
            expect((await limited.request({ method: 'POST', url: `/api/workflows/${workflowId}/run`, headers: bearer(owner) })).statusCode).toBe(202);
        } finally {
            await limited.close();
        }
    });

    // The session is checked before anything else could refuse the request (here joi, for a query
    // parameter the route does not take), and its 401 is an answer like any other. A session check left
    // to the enqueue's own statement (tried, and reverted) had to turn such refusals into 401s late, and
    // lost these headers on the way; it also let a live session's concurrent enqueues overshoot the
    // account's limit, or an ended session's spend it (see the next case and the rate-limit one above).
    it("an ended session's enqueue is refused 401 before anything else, with the headers every answer carries", async () => {
        const { accessToken, refreshToken } = await signUp(t);
        expect((await t.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } })).statusCode).toBe(204);
        const res = await t.request({
            method: 'POST',
            url: `/api/workflows/wf_doesnotexist/run?access_token=${accessToken}`,
            headers: { ...bearer(accessToken), 'x-request-id': 'ended-enqueue-1' }
        });
        expect(res.statusCode, res.payload).toBe(401);
        expect(res.json.message).toMatch(/session has ended.*log in again/);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(res.headers['x-request-id']).toBe('ended-enqueue-1');
        expect(res.headers['ratelimit-limit']).toMatch(/^\d+$/);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
    });

    it("a live session's enqueues spend the account's budget as any request does", async () => {
        const limited = await startTestServer({ config: { rateLimit: { perIp: 10_000, perAccount: 4, perHook: 10, windowSeconds: 60, mailPerIp: 20 } } });
        try {
            const { accessToken } = await signUp(limited);
            const graph = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
            await awayFromWindowEnd(60);
            const created = await limited.request({ method: 'POST', url: '/api/workflows', headers: bearer(accessToken), payload: { name: 'W', graph } });
            expect(created.headers['ratelimit-remaining']).toBe('3');
            const enqueue = () => limited.request({ method: 'POST', url: `/api/workflows/${created.json.workflowId}/run`, headers: bearer(accessToken) });
            for (const remaining of ['2', '1', '0']) {
                const res = await enqueue();
                expect(res.statusCode).toBe(202);
                expect(res.headers['ratelimit-remaining']).toBe(remaining);
            }

            const refused = await enqueue();
            expect(refused.statusCode).toBe(429);
            expect(refused.headers['retry-after']).toMatch(/^\d+$/);
            const runs = await limited.request({ method: 'GET', url: `/api/workflows/${created.json.workflowId}/runs`, headers: bearer(accessToken) });
            expect(runs.statusCode).toBe(429);
        } finally {
            await limited.close();
        }
    });

    it('after refresh-token reuse revoked the family: its newest access token too, and the API tokens it made', async () => {
        const { accessToken, refreshToken } = await signUp(t);
        const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
        expect((await me(refreshed.json.accessToken)).statusCode).toBe(200);
        // Whoever holds a stolen refresh token can mint a token that would outlive the session.
        const minted = await t.request({ method: 'POST', url: '/api/account/tokens', headers: bearer(refreshed.json.accessToken), payload: { name: 'minted' } });
        expect(minted.statusCode, minted.payload).toBe(201);
        expect((await me(minted.json.token)).statusCode).toBe(200);

        // Past the retry window, the used token can only be a stolen copy.
        const later = createAccountsService(t.app.ctx, { now: () => new Date(Date.now() + 11_000) });
        await expect(later.refresh(refreshToken)).rejects.toMatchObject({ output: { statusCode: 401 } });

        await expectEnded(t, accessToken);
        await expectEnded(t, refreshed.json.accessToken);
        expect((await me(minted.json.token)).statusCode).toBe(401);
    });
});

describe('personal API tokens need a recent sign-in and always expire', () => {
    let t: TestServer;
    const create = (accessToken: string, payload: Record<string, unknown>) =>
        t.request({ method: 'POST', url: '/api/account/tokens', headers: bearer(accessToken), payload });
    /** Moves the session's sign-in back, as if it had been refreshed for that long since. */
    const signedInAgo = async (accessToken: string, ms: number) => {
        const sid = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid as string;
        await t.app.ctx.db.query('UPDATE sessions SET signed_in_at = $2 WHERE id = $1', [sid, new Date(Date.now() - ms)]);
    };

    beforeAll(async () => {
        t = await startTestServer();
    });
    afterAll(() => t.close());

    it('refuses with 403 when the sign-in is older than 10 minutes, unless the password comes again', async () => {
        const { accessToken, password } = await signUp(t);
        await signedInAgo(accessToken, 11 * 60_000);

        const stale = await create(accessToken, { name: 'ci' });
        expect(stale.statusCode).toBe(403);
        expect(stale.json.message).toMatch(/sign-in from the last 10 minutes: log in again/);

        const wrong = await create(accessToken, { name: 'ci', password: `${password}-not` });
        expect(wrong.statusCode).toBe(403);
        expect(wrong.json.message).toMatch(/password is wrong/);

        const withPassword = await create(accessToken, { name: 'ci', password });
        expect(withPassword.statusCode, withPassword.payload).toBe(201);
    });

    it('gives a token 90 days when no expiry is asked, and refuses more than 365', async () => {
        const { accessToken } = await signUp(t);
        const created = await create(accessToken, { name: 'ci' });
        expect(created.statusCode, created.payload).toBe(201);
        expect(Date.parse(created.json.expiresAt) - Date.parse(created.json.createdAt)).toBe(90 * DAY_MS);

        const year = await create(accessToken, { name: 'yearly', expiresInDays: 365 });
        expect(Date.parse(year.json.expiresAt) - Date.parse(year.json.createdAt)).toBe(365 * DAY_MS);

        const forever = await create(accessToken, { name: 'forever', expiresInDays: 366 });
        expect(forever.statusCode).toBe(400);
        expect(forever.json.message).toContain('expiresInDays');
    });
});

if (store === 'postgres') {
    describe('across API processes on one PostgreSQL', () => {
        it('a log-out in one process ends the access token in the other at once', async () => {
            const one = await startTestServer({ config: { role: 'api' } });
            const two = await startTestServer({ testStore: one.testStore, config: { role: 'api' } });
            try {
                const { accessToken, refreshToken } = await signUp(one);
                expect((await two.request({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) })).statusCode).toBe(200);
                expect((await one.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } })).statusCode).toBe(204);
                await expectEnded(two, accessToken);
            } finally {
                await two.close();
                await one.close();
            }
        });

        // A token being made while a password change ends its session: whichever statement comes
        // first, the token does not outlive the change (the insert holds the session row FOR SHARE).
        it('a token inserted while a password change ends its session is revoked by the change', async () => {
            const t = await startTestServer();
            try {
                const { email, password, accessToken } = await signUp(t);
                const other = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
                const sidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
                const accountId = (await t.request({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) })).json.id as string;
                const newToken = (id: string) => ({ id, accountId, sessionId: sidOf(other.json.accessToken), name: id, tokenHash: id, prefix: 'flc_', expiresAt: null });

                // The insert first, its transaction still open: the change waits for it, then revokes the token.
                let release!: () => void;
                const held = new Promise<void>((resolve) => {
                    release = resolve;
                });
                let inserted!: () => void;
                const insertDone = new Promise<void>((resolve) => {
                    inserted = resolve;
                });
                const insert = t.app.ctx.db.tx(async (tx) => {
                    expect(await insertApiToken(tx, newToken('tok_first'), new Date(), 50)).not.toBeNull();
                    inserted();
                    await held;
                });
                await insertDone;
                const change = t.app.services.accounts.setPassword(accountId, { newPassword: 'changed during an insert', sessionId: sidOf(accessToken), signedInAt: new Date() });
                await new Promise((resolve) => setTimeout(resolve, 300));
                release();
                await insert;
                expect((await change).revokedApiTokens.map((v) => v.id)).toEqual(['tok_first']);

                // The change first, its transaction still open: the insert waits, then finds the session ended.
                const third = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'changed during an insert' } });
                const late = { ...newToken('tok_second'), sessionId: sidOf(third.json.accessToken) };
                let ended!: () => void;
                const endedDone = new Promise<void>((resolve) => {
                    ended = resolve;
                });
                let pending: Promise<unknown> = Promise.resolve();
                await t.app.ctx.db.tx(async (tx) => {
                    await revokeAccountRefreshTokens(tx, accountId, new Date(), sidOf(accessToken));
                    pending = insertApiToken(t.app.ctx.db, late, new Date(), 50).finally(ended);
                    await new Promise((resolve) => setTimeout(resolve, 300));
                    expect(await Promise.race([endedDone.then(() => 'done'), Promise.resolve('waiting')])).toBe('waiting');
                });
                expect(await pending).toBeNull();
            } finally {
                await t.close();
            }
        });
    });
}
