import { monitorEventLoopDelay } from 'node:perf_hooks';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { runsApi } from './run-fixtures.js';

// A hook's body is taken on the upload path, checked in paced pieces: while one is taken (JSON cut into
// rows and converted a slice at a time), other accounts' requests are answered. It used to be parsed,
// converted and checked in one synchronous go: a 40 MB body held every request for 10 s and more.

const MiB = 1024 * 1024;
/**
 * The longest the event loop may be held at once while a hook body is taken. It was 6 to 12 s (the
 * synchronous parse, conversion and check, and a depth walk of the raw body); now each slice is a few
 * milliseconds, but on a loaded test machine the process can wait for a core for hundreds of them.
 */
const MAX_STALL_MS = 1000;

const graph = {
    nodes: [
        { id: 'trigger', type: 'TRIGGER', data: { webhook: true } },
        { id: 'keep', type: 'FILTER', data: { source: '{{trigger.rows}}', expr: 'age < 0' } }
    ],
    edges: [{ source: 'trigger', target: 'keep' }]
};

const jsonBody = (bytes: number): string => {
    const rows: string[] = [];
    let size = 2;
    for (let i = 0; size < bytes; i++) {
        const row = JSON.stringify({ email: `person${i}@example.test`, name: `Person ${i}`, age: i % 90 });
        rows.push(row);
        size += row.length + 1;
    }

    return `[${rows.join(',')}]`;
};

const csvBody = (bytes: number): string => {
    const lines = ['email,name,age'];
    let size = lines[0]!.length + 1;
    for (let i = 0; size < bytes; i++) {
        const line = `person${i}@example.test,Person ${i},${i % 90}`;
        lines.push(line);
        size += line.length + 1;
    }

    return `${lines.join('\n')}\n`;
};

describe('hooks under load', () => {
    let t: TestServer;
    let owner: TestAccount;
    let other: TestAccount;
    beforeAll(async () => {
        // As large as a hook body may be set (MAX_HOOK_BYTES up to MAX_UPLOAD_BYTES, 50 MiB by default).
        t = await startTestServer({ config: { maxHookBytes: 50 * MiB, maxUploadBytes: 50 * MiB } });
        owner = await createAccount(t);
        other = await createAccount(t);
    });
    afterAll(() => t.close());

    it.each([
        ['a JSON array', 'application/json', () => jsonBody(45 * MiB)],
        ['CSV', 'text/csv', () => csvBody(45 * MiB)]
    ])('takes a 45 MiB body as %s without holding other accounts’ requests', async (_kind, type, make) => {
        const api = runsApi(t, owner);
        const res = await api.call('POST', '/api/workflows', { name: 'big hook', graph });
        expect(res.statusCode, res.payload).toBe(201);
        const path = new URL(res.json.hookUrl).pathname;
        const body = make();

        const delay = monitorEventLoopDelay({ resolution: 10 });
        delay.enable();
        let answered = 0;
        let done = false;
        const hook = t.request({ method: 'POST', url: path, headers: { 'content-type': type }, payload: body }).finally(() => {
            done = true;
        });
        const others = (async () => {
            while (!done) {
                const listed = await t.request({ method: 'GET', url: '/api/workflows', headers: other.headers });
                expect(listed.statusCode, listed.payload).toBe(200);
                answered += 1;
                await new Promise((resolve) => setTimeout(resolve, 20));
            }
        })();
        const started = await hook;
        await others;
        delay.disable();

        expect(started.statusCode, started.payload).toBe(202);
        expect(answered).toBeGreaterThan(5);
        expect(delay.max / 1e6).toBeLessThan(MAX_STALL_MS);
        const uploads = await api.call('GET', '/api/uploads');
        expect(uploads.json[0]).toMatchObject({ filename: 'hook.csv', columns: ['email', 'name', 'age'] });
        expect(uploads.json[0].rows).toBeGreaterThan(500_000);
        // Ended, whichever way, before the next body is measured.
        await api.waitFor(started.json.runId, undefined, 120_000);
    });
});
