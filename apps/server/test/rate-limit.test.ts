import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { clientKey } from '../src/http/rate-limit.js';
import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { awayFromWindowEnd } from './rate-windows.js';
import { accountsWith, freshEmail } from './sign-up.js';

// Small limits so a test can reach them; each test uses its own client addresses (inject's remoteAddress).
const PER_IP = 20;
const PER_ACCOUNT = 5;
const MAIL_PER_IP = 8;

describe('rate limiting', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer({ config: { rateLimit: { perIp: PER_IP, perAccount: PER_ACCOUNT, perHook: 120, windowSeconds: 60, mailPerIp: MAIL_PER_IP } } });
    });
    afterAll(() => t.close());
    beforeEach(() => awayFromWindowEnd(60));

    const from = (remoteAddress: string, url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, remoteAddress, headers });

    it('sends RateLimit-* headers counting down, then 429 with Retry-After and when to retry', async () => {
        const remaining: number[] = [];
        for (let i = 0; i < PER_IP; i++) {
            const res = await from('10.1.0.1', '/openapi.json');
            expect(res.statusCode).toBe(200);
            expect(res.headers['ratelimit-limit']).toBe(String(PER_IP));
            expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
            remaining.push(Number(res.headers['ratelimit-remaining']));
        }

        expect(remaining).toEqual(Array.from({ length: PER_IP }, (_, i) => PER_IP - 1 - i));
        const limited = await from('10.1.0.1', '/openapi.json');
        expect(limited.statusCode).toBe(429);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect(limited.headers['ratelimit-remaining']).toBe('0');
        expect(limited.json.message).toMatch(/^Too many requests from your address: at most 20 per 60 s\. Retry in \d+ s\.$/);

        // Other addresses are unaffected; probes and scrapes are never limited.
        expect((await from('10.1.0.2', '/openapi.json')).statusCode).toBe(200);
        for (const path of ['/healthz', '/readyz', '/metrics']) {
            const res = await from('10.1.0.1', path);
            expect(res.statusCode, path).toBe(200);
            expect(res.headers['ratelimit-limit']).toBeUndefined();
        }
    });

    it('counts unknown paths and errors too, with the headers on error responses', async () => {
        const res = await from('10.2.0.1', '/no/such/path');
        expect(res.statusCode).toBe(404);
        expect(res.headers['ratelimit-remaining']).toBe(String(PER_IP - 1));
    });

    it('limits an account across addresses', async () => {
        const { headers } = await createAccount(t);
        for (let i = 0; i < PER_ACCOUNT; i++) {
            const res = await from(`10.3.0.${i + 1}`, '/api/auth/me', headers);
            expect(res.statusCode).toBe(200);
            // The account bucket is the tighter one, so the headers describe it.
            expect(res.headers['ratelimit-limit']).toBe(String(PER_ACCOUNT));
        }

        const limited = await from('10.3.0.99', '/api/auth/me', headers);
        expect(limited.statusCode).toBe(429);
        expect(limited.json.message).toContain('requests for this account');

        const other = await createAccount(t);
        expect((await from('10.3.0.99', '/api/auth/me', other.headers)).statusCode).toBe(200);
    });

    it('limits log-in attempts per address and e-mail, before any password is checked', async () => {
        const email = freshEmail('brute');
        const attempt = (remoteAddress: string, address = email) =>
            t.request({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email: address, password: 'guess-guess' } });
        for (let i = 0; i < 10; i++) {
            expect((await attempt('10.4.0.1')).statusCode).toBe(401);
        }

        const limited = await attempt('10.4.0.1');
        expect(limited.statusCode).toBe(429);
        expect(limited.json.message).toContain('log-in attempts for this e-mail address');
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        // Same address in another case: the same bucket.
        expect((await attempt('10.4.0.1', email.toUpperCase())).statusCode).toBe(429);

        // Someone else signing in from the same network, or this address from another network, is not held up.
        expect((await attempt('10.4.0.1', freshEmail('neighbour'))).statusCode).toBe(401);
        expect((await attempt('10.4.0.2')).statusCode).toBe(401);
    });

    it('shares one sign-up e-mail bucket between register and resend-otp; a refused registration creates nothing', async () => {
        const email = freshEmail('flood');
        for (let i = 0; i < 5; i++) {
            const res = await t.request({ method: 'POST', url: '/api/auth/resend-otp', remoteAddress: '10.5.0.1', payload: { email } });
            // After the first, the address's one-a-minute cooldown answers; each still counts.
            expect(res.statusCode).toBe(i === 0 ? 202 : 429);
        }

        const limited = await t.request({
            method: 'POST',
            url: '/api/auth/register',
            remoteAddress: '10.5.0.1',
            payload: { email, password: 'long enough', fullName: 'Flood' }
        });
        expect(limited.statusCode).toBe(429);
        expect(limited.json.message).toContain('sign-up e-mails for this address');
        expect(await accountsWith(t, email)).toBe(0);
    });

    it('caps sign-up, resend and reset e-mails per network whatever the address, and per address whoever asks', async () => {
        const mail = (remoteAddress: string, url: string, email: string) =>
            t.request({
                method: 'POST',
                url,
                remoteAddress,
                payload: url === '/api/auth/register' ? { email, password: 'long enough', fullName: 'Flood' } : { email }
            });
        const urls = ['/api/auth/register', '/api/auth/resend-otp', '/api/auth/forgot-password'];

        // One network, a new address each time.
        for (let i = 0; i < MAIL_PER_IP; i++) {
            expect((await mail('10.7.0.1', urls[i % 3]!, freshEmail('spread'))).statusCode).toBeLessThan(300);
        }

        const perNetwork = await mail('10.7.0.1', '/api/auth/forgot-password', freshEmail('spread'));
        expect(perNetwork.statusCode).toBe(429);
        expect(Number(perNetwork.headers['retry-after'])).toBeGreaterThan(0);
        expect(perNetwork.json.message).toContain('sign-up and password e-mails requested from your address');

        // One address, a new network each time: ten an hour.
        const target = freshEmail('target');
        for (let i = 0; i < 10; i++) {
            const res = await mail(`10.8.0.${i + 1}`, urls[i % 3]!, target);
            // A resend within a minute of a registration meets the address's cooldown instead; it counts too.
            expect(res.statusCode < 300 || /at most one a minute/.test(res.json.message), res.payload).toBe(true);
        }

        const perAddress = await mail('10.8.1.1', '/api/auth/forgot-password', target.toUpperCase());
        expect(perAddress.statusCode).toBe(429);
        expect(perAddress.json.message).toMatch(/^Too many e-mails to this address: at most 10 per 3600 s\. Retry in \d+ s\.$/);
        expect(Number(perAddress.headers['retry-after'])).toBeGreaterThan(60);
    });

    it('keeps the counters where the store says: in memory when embedded, shared through PostgreSQL otherwise', async () => {
        await from('10.6.0.1', '/openapi.json');
        const keys = async () => (await t.app.ctx.db.query<{ key: string }>('SELECT key FROM rate_limits')).map((row) => row.key);
        if (t.config.databaseUrl) {
            // Written in the next batch, a few milliseconds after the request.
            await vi.waitFor(async () => expect(await keys()).toContain('ip:10.6.0.1'), { timeout: 5_000 });
        } else {
            expect(await keys()).toEqual([]);
        }
    });

    it('keys IPv6 clients by their /64', () => {
        expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
        expect(clientKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
        expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
        expect(clientKey('::1')).toBe('0:0:0:0::/64');
        expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
        expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    });
});
