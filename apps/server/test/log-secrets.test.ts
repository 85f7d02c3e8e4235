import Pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type App, createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { REDACT_PATHS } from '../src/http/redact.js';
import { createAccountsService } from '../src/services/accounts.js';
import { createTestStore, type TestStore } from './harness.js';
import { type SmtpSink, startSmtpSink } from './smtp.js';

describe('logs', () => {
    const lines: string[] = [];
    let app: App;
    let smtp: SmtpSink;
    let store: TestStore;

    beforeAll(async () => {
        smtp = await startSmtpSink();
        store = await createTestStore();
        const config = loadConfig(
            { FLOWCTL_DATA_DIR: store.dataDir, PORT: '0', ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}) },
            { smtpUrl: smtp.url }
        );
        // The most talkative level, with the app's own redaction, into memory.
        const logger = Pino({ level: 'trace', redact: REDACT_PATHS }, { write: (line: string) => lines.push(line) });
        app = await createApp(config, { logger, validateResponses: true });
        await app.start();
    });
    afterAll(async () => {
        await app.stop();
        await smtp.close();
        await store.drop();
    });

    const call = async (method: string, url: string, payload?: object, token?: string) => {
        const res = await app.server!.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
        return { statusCode: res.statusCode, json: res.payload ? JSON.parse(res.payload) : undefined };
    };

    it('never carry a password, code, token or API key', async () => {
        const email = 'secretive@example.test';
        const password = 'Pa55word-Never-Logged';
        const wrongPassword = 'Wr0ng-Password-Never-Logged';
        const apiKey = 'sk-never-logged-0123456789';

        expect((await call('POST', '/api/auth/register', { email, password, fullName: 'Secretive' })).statusCode).toBe(201);
        const otp = /verification code is (\d{6})/.exec((await smtp.waitFor(1))[0]!.text)![1]!;
        const wrongOtp = otp === '999999' ? '888888' : '999999';
        expect((await call('POST', '/api/auth/verify-email', { email, otp: wrongOtp })).statusCode).toBe(400);
        const verified = await call('POST', '/api/auth/verify-email', { email, otp });
        expect(verified.statusCode).toBe(200);
        expect((await call('POST', '/api/auth/login', { email, password: wrongPassword })).statusCode).toBe(401);
        const login = await call('POST', '/api/auth/login', { email, password });
        const refreshed = await call('POST', '/api/auth/refresh-token', { refreshToken: login.json.refreshToken });
        // A replay after the retry window is logged as a warning: it must name the family, not the token.
        const later = createAccountsService(app.ctx, { now: () => new Date(Date.now() + 60_000) });
        await expect(later.refresh(login.json.refreshToken)).rejects.toMatchObject({ output: { statusCode: 401 } });
        // That replay ended the session `refreshed` belongs to: its access token is refused at once.
        expect((await call('GET', '/api/auth/me', undefined, refreshed.json.accessToken)).statusCode).toBe(401);
        expect((await call('PUT', '/api/account/settings', { ai: { apiKey } }, verified.json.accessToken)).statusCode).toBe(200);
        // A failed verification e-mail is logged too, without its code.
        smtp.reject('bounced@example.test');
        expect((await call('POST', '/api/auth/register', { email: 'bounced@example.test', password, fullName: 'Bounced' })).statusCode).toBe(503);

        const output = lines.join('');
        expect(output).toContain('"path":"/api/auth/login"');
        expect(output).toContain('refresh token reused');
        expect(output).toContain('sign-up e-mail not sent');
        const secrets = {
            password,
            wrongPassword,
            apiKey,
            accessToken: verified.json.accessToken,
            refreshToken: verified.json.refreshToken,
            loginRefresh: login.json.refreshToken,
            refreshedAccess: refreshed.json.accessToken,
            jwtSecret: app.ctx.secrets.jwtSecret
        };
        for (const [name, secret] of Object.entries(secrets)) {
            expect(output.includes(secret), `${name} appears in the log`).toBe(false);
        }

        // Codes as a number of their own, not as a run of digits inside a timestamp.
        for (const code of [otp, wrongOtp]) {
            expect(new RegExp(`(?<!\\d)${code}(?!\\d)`).test(output), `code ${code} appears in the log`).toBe(false);
        }
    });

    it('never carry an unsubscribe token or a hook id from a path', async () => {
        // Either one acts for someone (unsubscribes a recipient, starts a run) without a sign-in.
        const token = 'AAAAtokenNeverLogged0123456789abcdefghijklmnopqrstuvwxyz';
        const before = lines.length;
        for (const url of [`/u/${token}`, `/u/${token}?utm_source=x`, `/api/hooks/hk_${token}`]) {
            await app.server!.inject({ method: url.startsWith('/u/') ? 'GET' : 'POST', url, payload: url.startsWith('/u/') ? undefined : [] });
        }
        const output = lines.slice(before).join('');
        expect(output).not.toContain('tokenNeverLogged');
        expect(output).toContain('"path":"/u/sha256:');
        expect(output).toContain('"path":"/api/hooks/sha256:');
    });

    it('redacts secret-named fields even when code logs them by mistake', () => {
        const before = lines.length;
        app.ctx.log.info({ payload: { password: 'p', ai: { apiKey: 'k' } }, refreshToken: 'r', headers: { authorization: 'Bearer t' } }, 'oops');
        const line = JSON.parse(lines.slice(before).join(''));
        expect(line.payload).toEqual({ password: '[Redacted]', ai: { apiKey: '[Redacted]' } });
        expect(line.refreshToken).toBe('[Redacted]');
        expect(line.headers.authorization).toBe('[Redacted]');
    });
});
