import { describe, expect, it } from 'vitest';

import { startTestServer } from './harness.js';
import { bearer, signUp } from './sign-up.js';

describe('accounts across a restart', () => {
    it('keeps passwords, refresh tokens and the signing secret in the store and data directory', async () => {
        const first = await startTestServer();
        const { email, password, accessToken, refreshToken } = await signUp(first);
        await first.app.stop();
        await first.smtp.close();

        const second = await startTestServer({ testStore: first.testStore });
        try {
            expect(second.url).not.toBe(first.url);
            const login = await second.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
            expect(login.statusCode).toBe(200);

            // Issued by the first process: still valid, because the JWT secret was kept in the data directory.
            const me = await second.request({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) });
            expect(me.statusCode).toBe(200);
            expect(me.json.email).toBe(email);

            const refreshed = await second.request({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
            expect(refreshed.statusCode).toBe(200);
            expect(refreshed.json.refreshToken).not.toBe(refreshToken);
        } finally {
            await second.close();
            await first.testStore.drop();
        }
    });
});
