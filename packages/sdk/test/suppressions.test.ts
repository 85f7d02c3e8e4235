// client.suppressions against a real server: list (paged), add, remove, and typed errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BadRequestError, type Flowctl, NotFoundError } from '../src/index.js';
import { clientFor, signUp, startTestServer, type TestServer } from './server.js';

describe('client.suppressions', () => {
    let t: TestServer;
    let client: Flowctl;

    beforeAll(async () => {
        t = await startTestServer();
        client = clientFor(t, await signUp(t));
    });

    afterAll(() => t?.close());

    it('adds, lists across pages, and removes', async () => {
        const emails = Array.from({ length: 120 }, (_, i) => `P${i}@Example.test`);
        expect(await client.suppressions.add(emails)).toEqual({ added: 120, alreadyPresent: 0 });
        expect(await client.suppressions.add(['p0@example.TEST', 'new@example.test'])).toEqual({ added: 1, alreadyPresent: 1 });

        // 121 addresses: three pages of 50, followed through the Link header.
        const all = [];
        for await (const entry of client.suppressions.list()) {
            all.push(entry);
        }

        expect(all).toHaveLength(121);
        expect(all[0]).toEqual({ email: expect.any(String), reason: 'manual', workflowId: null, createdAt: expect.any(String) });

        await client.suppressions.remove(' p5@EXAMPLE.test ');
        await expect(client.suppressions.remove('p5@example.test')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('refuses addresses that are not ones, naming each, and adds none', async () => {
        const err = await client.suppressions.add(['ok@example.test', 'nope', 'a@b']).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(BadRequestError);
        expect(((err as BadRequestError).details as { path: string }[]).map((d) => d.path)).toEqual(['emails[1]', 'emails[2]']);
        const all = [];
        for await (const entry of client.suppressions.list()) {
            all.push(entry.email);
        }

        expect(all).not.toContain('ok@example.test');
    });
});
