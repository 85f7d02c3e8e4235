import Pino from 'pino';
import { describe, expect, it } from 'vitest';

import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createTestStore } from './harness.js';

/** The warnings a server logs as it starts with these variables. */
const startWarnings = async (env: Record<string, string>): Promise<string[]> => {
    const store = await createTestStore();
    const lines: { level: number; msg: string }[] = [];
    const logger = Pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const config = loadConfig({ FLOWCTL_DATA_DIR: store.dataDir, PORT: '0', ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}), ...env });
    const app = await createApp(config, { logger });
    try {
        await app.start();
    } finally {
        await app.stop();
        await store.drop();
    }

    return lines.filter((line) => line.level === 40).map((line) => line.msg);
};

describe('PUBLIC_URL', () => {
    it('is asked for at start when SMTP_URL sends real e-mail with links to the listen address, and only then', async () => {
        // Nothing listens on the relay's port: the warning is given before any e-mail is sent.
        const relay = { SMTP_URL: 'smtp://127.0.0.1:9' };
        const [warning, ...others] = (await startWarnings(relay)).filter((msg) => msg.includes('PUBLIC_URL'));
        expect(warning).toMatch(/^SMTP_URL sends real e-mail but PUBLIC_URL is not set: unsubscribe and hook links point to http:\/\/127\.0\.0\.1:0, which recipients cannot reach; set PUBLIC_URL/);
        expect(others).toEqual([]);

        expect((await startWarnings({ ...relay, PUBLIC_URL: 'https://flowctl.example.com' })).filter((msg) => msg.includes('PUBLIC_URL'))).toEqual([]);
        // The outbox (no SMTP_URL): e-mails stay on this machine, where the links work.
        expect((await startWarnings({})).filter((msg) => msg.includes('PUBLIC_URL'))).toEqual([]);
    });
});
