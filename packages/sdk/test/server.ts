// The SDK's tests drive a real flowctl server: the server's own test harness (embedded store or a fresh
// PostgreSQL database, a real SMTP sink), started from apps/server's source.
import type { GraphInput } from '../src/index.js';
import Crypto from 'node:crypto';

import { Flowctl, type ClientOptions } from '../src/index.js';
import { startTestServer, store, type TestServer, type TestServerOptions } from '../../../apps/server/test/harness.js';
import { freshEmail, otpFor, resetCodeFor, signUp, type SignedUp } from '../../../apps/server/test/sign-up.js';

export { freshEmail, otpFor, resetCodeFor, signUp, startTestServer, store, type SignedUp, type TestServer, type TestServerOptions };

/** A client for `t`, signed in as `account` (access + refresh token) unless options say otherwise. */
export const clientFor = (t: TestServer, account?: SignedUp, options: Partial<ClientOptions> = {}) =>
    new Flowctl({ baseUrl: t.url, ...(account ? { accessToken: account.accessToken, refreshToken: account.refreshToken } : {}), ...options });

export const csv = (rows: number) => {
    const lines = ['email,name,city'];
    for (let i = 0; i < rows; i++) {
        lines.push(`person${i}@example.test,Person ${i},${i % 2 ? 'Paris' : 'Lyon'}`);
    }

    return `${lines.join('\n')}\n`;
};

export const triggerOnly = (): GraphInput => ({ nodes: [{ id: 'start', type: 'TRIGGER' as const, data: {} }], edges: [] });

/** TRIGGER -> DATA_SOURCE -> FILTER -> OUTPUT. */
export const newsletter = (uploadId: string, expr = "city == 'Paris'"): GraphInput => ({
    nodes: [
        { id: 'start', type: 'TRIGGER' as const, data: {} },
        { id: 'people', type: 'DATA_SOURCE' as const, data: { uploadId } },
        { id: 'audience', type: 'FILTER' as const, data: { source: '{{people.rows}}', expr } },
        { id: 'send', type: 'OUTPUT' as const, data: { forEach: '{{audience.items}}', to: '{{item.email}}', subject: 'Hi {{item.name}}', body: 'See you in {{item.city}}.' } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'audience' },
        { source: 'audience', target: 'send' }
    ]
});

export const randomName = (tag: string) => `${tag}-${Crypto.randomBytes(4).toString('hex')}`;
