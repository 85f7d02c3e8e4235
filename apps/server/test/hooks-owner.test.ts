import { afterAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { awayFromWindowEnd } from './rate-windows.js';
import { runsApi } from './run-fixtures.js';
import { uploadCsv } from './upload-fixtures.js';

// What a hook's holder can cost its owner: requests count against the hook, not the account's API
// budget; the rows posted are stored as an upload that goes with the last run naming it.

const graph = {
    nodes: [
        { id: 'trigger', type: 'TRIGGER', data: { webhook: true } },
        { id: 'keep', type: 'FILTER', data: { source: '{{trigger.rows}}', expr: 'age > 0' } }
    ],
    edges: [{ source: 'trigger', target: 'keep' }]
};

const hookOf = async (t: TestServer, account: TestAccount): Promise<string> => {
    const res = await runsApi(t, account).call('POST', '/api/workflows', { name: 'hooked', graph });
    expect(res.statusCode, res.payload).toBe(201);
    return new URL(res.json.hookUrl).pathname;
};

const post = (t: TestServer, path: string, payload: string, type = 'application/json') =>
    t.request({ method: 'POST', url: path, headers: { 'content-type': type }, payload });

describe('hooks: the owner', () => {
    let limited: TestServer | null = null;
    let t: TestServer | null = null;
    let second: TestServer | null = null;
    afterAll(async () => {
        await limited?.close();
        await second?.close();
        await t?.testStore.drop();
    });

    it("counts a hook's requests against the hook, not its account: a flood of bad bodies cannot lock the owner out", async () => {
        limited = await startTestServer({ config: { rateLimit: { perIp: 10_000, perAccount: 30, perHook: 10, windowSeconds: 60, mailPerIp: 20 } } });
        const t = limited;
        const owner = await createAccount(t);
        const flooded = await hookOf(t, owner);
        const other = await hookOf(t, owner);
        await awayFromWindowEnd(60);

        const codes: number[] = [];
        for (let i = 0; i < 40; i++) {
            codes.push((await post(t, flooded, '{')).statusCode);
        }
        expect(codes.slice(0, 10)).toEqual(Array(10).fill(400));
        expect(codes.slice(10)).toEqual(Array(30).fill(429));
        const refused = await post(t, flooded, '[]');
        expect(refused.json.message).toContain('requests to this hook');
        expect(refused.headers['retry-after']).toBeDefined();

        // The owner's API and the account's other hook are untouched.
        const listed = await runsApi(t, owner).call('GET', '/api/workflows');
        expect(listed.statusCode, listed.payload).toBe(200);
        expect(Number(listed.headers['ratelimit-remaining'])).toBeGreaterThan(20);
        expect((await post(t, other, '[{"age": 1}]')).statusCode).toBe(202);
    });

    it('deletes the rows a hook stored once no run names them (with the run, past RUN_RETENTION_DAYS), and never an upload the account made', async () => {
        t = await startTestServer();
        const owner = await createAccount(t);
        const api = runsApi(t, owner);
        const path = await hookOf(t, owner);
        const csv = 'name,age\nAda,36\n';
        // The account's own file of the same name and bytes: a hook's rows are never matched to it.
        const mine = await uploadCsv(t, owner, csv, { filename: 'hook.csv' });
        expect(mine.status).toBe(201);

        const started: string[] = [];
        for (const body of [csv, csv, '[{"name": "Bo", "age": 7}]']) {
            const res = await post(t, path, body, body.startsWith('[') ? 'application/json' : 'text/csv');
            expect(res.statusCode, res.payload).toBe(202);
            started.push(res.json.runId);
            expect((await api.waitFor(res.json.runId)).status).toBe('SUCCESS');
        }

        const uploadOf = async (runId: string) =>
            (await t!.app.ctx.db.query<{ trigger_upload_id: string }>('SELECT trigger_upload_id FROM runs WHERE id = $1', [runId]))[0]!.trigger_upload_id;
        const [old, alsoOld, recent] = (await Promise.all(started.map(uploadOf))) as [string, string, string];
        expect(new Set([mine.json.uploadId, old, alsoOld, recent]).size).toBe(4);

        // Two runs ended 31 days ago, one 29 days ago; their uploads were stored before the grace period.
        await t.app.ctx.db.query("UPDATE runs SET completed_at = now() - interval '31 days' WHERE id = ANY($1::text[])", [started.slice(0, 2)]);
        await t.app.ctx.db.query("UPDATE runs SET completed_at = now() - interval '29 days' WHERE id = $1", [started[2]]);
        await t.app.ctx.db.query("UPDATE uploads SET created_at = now() - interval '2 hours'");

        // The worker deletes expired runs when it starts.
        await t.app.stop();
        await t.smtp.close();
        second = await startTestServer({ testStore: t.testStore, config: { runRetentionDays: 30 } });
        const again = runsApi(second, owner);
        const status = async (uploadId: string) => (await again.call('GET', `/api/uploads/${uploadId}`)).statusCode;
        expect([await status(old), await status(alsoOld), await status(recent), await status(mine.json.uploadId)]).toEqual([404, 404, 200, 200]);
        // The bytes went too: reading them finds nothing.
        const kept = await second.app.ctx.blobs.keysStoredBefore(Date.now() + 60_000);
        expect([kept.includes(old), kept.includes(alsoOld), kept.includes(recent), kept.includes(mine.json.uploadId)]).toEqual([false, false, true, true]);
        expect((await again.get(started[2]!)).status).toBe('SUCCESS');
    });
});
