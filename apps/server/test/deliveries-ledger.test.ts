import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { type Json, newsletter, runsApi } from './run-fixtures.js';

/** Every entry of a run's ledger, following the Link header page by page. */
const allPages = async (api: ReturnType<typeof runsApi>, firstUrl: string): Promise<{ items: Json[]; pages: number; links: string[] }> => {
    const items: Json[] = [];
    const links: string[] = [];
    let url: string | null = firstUrl;
    let pages = 0;
    while (url) {
        const res = await api.call('GET', url);
        expect(res.statusCode, res.payload).toBe(200);
        items.push(...res.json);
        pages++;
        const link = res.headers.link as string | undefined;
        url = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
        if (link) links.push(link);
    }

    return { items, pages, links };
};

describe('the delivery ledger: who got what', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;

    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
        api = runsApi(t, account);
    });
    afterAll(() => t.close());

    const ledgerUrl = (runId: string, query = '') => `/api/workflows/runs/${runId}/deliveries${query}`;

    it('lists each element of the OUTPUT with its recipient and what became of it, from the records', async () => {
        t.smtp.reject('cy@ledger.example.test');
        const csv = [
            'name,email,age',
            'Ann,ann@ledger.example.test,30',
            'Kid,kid@ledger.example.test,9',
            'Bob,bob@,40',
            'Cy,cy@ledger.example.test,50',
            'Dee,,60',
            'Eve,eve@ledger.example.test,70'
        ].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age >= 18'));
        const run = await api.run(workflowId);
        expect(run.status).toBe('FAILED');

        const res = await api.call('GET', ledgerUrl(run.runId));
        expect(res.statusCode, res.payload).toBe(200);
        expect(res.headers.link).toBeUndefined();
        const byIndex = res.json.map((e: Json) => [e.nodeId, e.index, e.to, e.status, e.attempts]);
        expect(byIndex).toEqual([
            ['send', 0, 'ann@ledger.example.test', 'sent', 1],
            ['send', 1, 'bob@', 'failed', 0],
            ['send', 2, 'cy@ledger.example.test', 'failed', 1],
            ['send', 3, null, 'failed', 0],
            ['send', 4, 'eve@ledger.example.test', 'sent', 1]
        ]);
        const [ann, bob, cy, dee] = res.json;
        expect(ann).toMatchObject({ messageId: `<${run.runId}.send.0@flowctl.test>`, error: null, at: expect.any(String) });
        expect(bob).toMatchObject({ messageId: null, error: "invalid recipient address 'bob@' (the domain is invalid)" });
        expect(cy.error).toMatch(/550/);
        expect(cy.messageId).toBe(`<${run.runId}.send.2@flowctl.test>`);
        expect(dee.error).toBe('empty recipient address');

        // The mail server has what the ledger says was sent.
        const received = t.smtp.messages.filter((m) => m.to[0]?.endsWith('@ledger.example.test')).map((m) => m.to[0]);
        expect(received.sort()).toEqual(['ann@ledger.example.test', 'eve@ledger.example.test']);

        const failed = await api.call('GET', ledgerUrl(run.runId, '?status=failed'));
        expect(failed.json.map((e: Json) => e.index)).toEqual([1, 2, 3]);
        const sent = await api.call('GET', ledgerUrl(run.runId, '?status=sent'));
        expect(sent.json.map((e: Json) => e.to)).toEqual(['ann@ledger.example.test', 'eve@ledger.example.test']);
        for (const status of ['pending', 'unknown', 'suppressed']) {
            const none = await api.call('GET', ledgerUrl(run.runId, `?status=${status}`));
            expect([status, none.statusCode, none.json]).toEqual([status, 200, []]);
        }
    });

    it("answers after a retry: the retry's ledger lists the e-mails it sent again", async () => {
        const csv = ['name,email,age', 'R0,r0@again.example.test,30', 'R1,r1@again.example.test,30', 'R2,r2@again.example.test,30'].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'true'));
        t.smtp.failNext(2, 550);
        const failed = await api.run(workflowId);
        expect((await api.call('GET', ledgerUrl(failed.runId, '?status=failed'))).json.map((e: Json) => [e.index, e.to])).toEqual([
            [0, 'r0@again.example.test'],
            [1, 'r1@again.example.test']
        ]);

        const retried = await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`);
        expect(retried.statusCode, retried.payload).toBe(202);
        const retry = await api.waitFor(retried.json.runId);
        expect(retry.status).toBe('SUCCESS');
        const ledger = await api.call('GET', ledgerUrl(retry.runId));
        expect(ledger.json.map((e: Json) => [e.index, e.to, e.status, e.messageId])).toEqual([
            [0, 'r0@again.example.test', 'sent', `<${retry.runId}.send.0@flowctl.test>`],
            [1, 'r1@again.example.test', 'sent', `<${retry.runId}.send.1@flowctl.test>`]
        ]);
    });

    it('pages by Link, keeping the status filter, over every element once', async () => {
        const csv = ['name,email,age', ...Array.from({ length: 23 }, (_, i) => `P${i},p${i}@pages.example.test,${i % 2 === 0 ? 30 : 'x'}`)].join('\n');
        t.smtp.reject('p4@pages.example.test');
        t.smtp.reject('p10@pages.example.test');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'true'));
        const run = await api.run(workflowId);

        const all = await allPages(api, ledgerUrl(run.runId, '?limit=5'));
        expect(all.pages).toBe(5);
        expect(all.items.map((e) => e.index)).toEqual(Array.from({ length: 23 }, (_, i) => i));
        expect(all.items.map((e) => e.to)).toEqual(Array.from({ length: 23 }, (_, i) => `p${i}@pages.example.test`));

        const failed = await allPages(api, ledgerUrl(run.runId, '?status=failed&limit=1'));
        expect(failed.items.map((e) => e.index)).toEqual([4, 10]);
        expect(failed.links.every((link) => link.includes('status=failed'))).toBe(true);
        const sent = await allPages(api, ledgerUrl(run.runId, '?status=sent&limit=7'));
        expect(sent.items).toHaveLength(21);
        expect(sent.pages).toBe(3);
    });

    it('shows elements under way and those not reached while the run sends', async () => {
        const count = 12;
        const csv = ['name,email,age', ...Array.from({ length: count }, (_, i) => `W${i},w${i}@live.example.test,30`)].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'true'));
        const held = t.smtp.hold(1);
        const runId = await api.enqueue(workflowId);
        await held;

        // The node's element count is written beside its first intent, not before it: wait for it to land.
        let live = await api.call('GET', ledgerUrl(runId));
        for (const deadline = Date.now() + 10_000; live.json.length < count && Date.now() < deadline; ) {
            live = await api.call('GET', ledgerUrl(runId));
        }
        expect(live.statusCode, live.payload).toBe(200);
        expect(live.json.map((e: Json) => e.index)).toEqual(Array.from({ length: count }, (_, i) => i));
        for (const e of live.json) {
            expect(['unknown', 'pending', 'sent']).toContain(e.status);
            expect(e.to).toBe(e.status === 'pending' ? null : `w${e.index}@live.example.test`);
        }
        const underWay = await api.call('GET', ledgerUrl(runId, '?status=unknown'));
        expect(underWay.json.length).toBeGreaterThanOrEqual(1);
        expect(underWay.json.every((e: Json) => e.attempts === 1 && e.messageId !== null)).toBe(true);
        const pending = await api.call('GET', ledgerUrl(runId, '?status=pending&limit=500'));
        const unsent = live.json.filter((e: Json) => e.status === 'pending').map((e: Json) => e.index);
        expect(pending.json.map((e: Json) => e.index)).toEqual(unsent);

        // The run detail carries the counts a progress bar needs while it runs (written by the run's
        // progress writer, which coalesces: it lands one flush after the node's element count).
        let detail = await api.get(runId);
        for (const deadline = Date.now() + 10_000; api.node(detail, 'send').output?.emailsTotal === undefined && Date.now() < deadline; ) {
            await new Promise((resolve) => setTimeout(resolve, 50));
            detail = await api.get(runId);
        }
        t.smtp.release();
        expect(api.node(detail, 'send').output).toMatchObject({ emailsTotal: count });

        const done = await api.waitFor(runId);
        expect(done.status).toBe('SUCCESS');
        const after = await api.call('GET', ledgerUrl(runId));
        expect(after.json.map((e: Json) => e.status)).toEqual(Array(count).fill('sent'));
    });

    it('answers 404 for another account’s run and an unknown one, and 400 naming a bad status, limit or cursor', async () => {
        const workflowId = await api.workflow(newsletter(await api.upload('name,email,age\nA,a@own.example.test,30'), 'true'));
        const run = await api.run(workflowId);
        const stranger = runsApi(t, await createAccount(t));
        for (const url of [ledgerUrl(run.runId), ledgerUrl(run.runId, '?status=nonsense'), ledgerUrl('run_unknown')]) {
            const res = await stranger.call('GET', url);
            expect([url, res.statusCode]).toEqual([url, 404]);
        }

        for (const [query, field] of [
            ['?status=delivered', 'status'],
            ['?limit=0', 'limit'],
            ['?limit=501', 'limit'],
            ['?cursor=zz', 'cursor'],
            ['?cursor=d9.0', 'cursor'],
            // Past the integer column (it answered 500), alone and with a status.
            ['?cursor=d0.zzzzzzz', 'cursor'],
            ['?status=sent&cursor=d0.zzzzzzz', 'cursor']
        ] as const) {
            const res = await api.call('GET', ledgerUrl(run.runId, query));
            expect([query, res.statusCode]).toEqual([query, 400]);
            expect(res.json.message).toContain(field);
        }
    });
});
