import type { Boom } from '@hapi/boom';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { createNodeOutputReader } from '../src/services/node-output.js';
import { createRecomputeTurns } from '../src/services/recompute-turns.js';

import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { runsApi } from './run-fixtures.js';

// What a run stores is bounded whatever its size: node outputs are summaries, and pages of a
// DATA_SOURCE's or FILTER's output are read again from the upload.

const ROWS = 20_000;
const csv = ['n,label', ...Array.from({ length: ROWS }, (_, i) => `${i},row number ${i} of the upload`)].join('\n');

describe('runs: bounded node outputs', () => {
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;
    beforeAll(async () => {
        t = await startTestServer();
        api = runsApi(t, await createAccount(t));
    });
    afterAll(() => t.close());

    it('stores summaries only, and pages through recomputed outputs', async () => {
        const graph = {
            nodes: [
                { id: 'start', type: 'TRIGGER', data: {} },
                { id: 'rows', type: 'DATA_SOURCE', data: { uploadId: await api.upload(csv) } },
                { id: 'high', type: 'FILTER', data: { source: '{{rows.rows}}', expr: 'n >= 5000' } },
                { id: 'middle', type: 'FILTER', data: { source: '{{ high.items }}', expr: "n < 15000 && label != 'x'" } }
            ],
            edges: [
                { source: 'start', target: 'rows' },
                { source: 'rows', target: 'high' },
                { source: 'high', target: 'middle' }
            ]
        };
        const run = await api.run(await api.workflow(graph));
        expect(run.status).toBe('SUCCESS');
        expect(run.result).toEqual({ totalRows: ROWS, filteredOut: 10_000, emailsSent: 0 });
        expect(api.node(run, 'middle').output.items.count).toBe(10_000);

        // The upload is about 700 kB: none of it is stored per node beyond the first rows.
        const stored = await t.app.ctx.db.one<{ outputs: number; summaries: number }>(
            'SELECT COALESCE(sum(octet_length(output::text)), 0)::int AS outputs, max(octet_length(summary::text))::int AS summaries FROM run_nodes WHERE run_id = $1',
            [run.runId]
        );
        expect(stored?.outputs).toBeLessThan(1024);
        expect(stored?.summaries).toBeLessThan(2048);

        const page = await api.call('GET', `/api/workflows/runs/${run.runId}/nodes/middle/output?offset=9990&limit=50`);
        expect(page.statusCode).toBe(200);
        expect(page.json).toMatchObject({ status: 'SUCCESS', total: 10_000, offset: 9990, limit: 50 });
        expect(page.json.output.items).toEqual(Array.from({ length: 10 }, (_, i) => ({ n: 14_990 + i, label: `row number ${14_990 + i} of the upload` })));

        const rows = await api.call('GET', `/api/workflows/runs/${run.runId}/nodes/rows/output?offset=12345&limit=3`);
        expect(rows.json).toMatchObject({ total: ROWS, output: { rows: [12345, 12346, 12347].map((n) => ({ n, label: `row number ${n} of the upload` })) } });
        expect(rows.headers.link).toContain('offset=12348');
    });

    it('keeps at most a few kilobytes of the first rows in the run detail, however wide they are', async () => {
        const wide = ['text', ...Array.from({ length: 6 }, (_, i) => `${String(i).repeat(6000)}`)].join('\n');
        const run = await api.run(
            await api.workflow({
                nodes: [
                    { id: 'start', type: 'TRIGGER', data: {} },
                    { id: 'rows', type: 'DATA_SOURCE', data: { uploadId: await api.upload(wide) } }
                ],
                edges: [{ source: 'start', target: 'rows' }]
            })
        );
        expect(run.status).toBe('SUCCESS');
        const summary = api.node(run, 'rows').output.rows;
        expect(summary.count).toBe(6);
        expect(summary.first).toHaveLength(2);
        // Past what the summary holds, pages are read again from the upload.
        const page = await api.call('GET', `/api/workflows/runs/${run.runId}/nodes/rows/output?offset=4&limit=5`);
        expect(page.json.output.rows).toEqual([{ text: '4'.repeat(6000) }, { text: '5'.repeat(6000) }]);
    });

    it("reads pages again two at once, one per account: an account past them waits its turn, and only an account already reading is refused", async () => {
        const ten = ['n', ...Array.from({ length: 10 }, (_, i) => String(i))].join('\n');
        /** An account's run of DATA_SOURCE → FILTER over ten rows: its items past the 5 the summary keeps are read again. */
        const accountWithRun = async () => {
            const account = await createAccount(t);
            const own = runsApi(t, account);
            const graph = {
                nodes: [
                    { id: 'start', type: 'TRIGGER', data: {} },
                    { id: 'rows', type: 'DATA_SOURCE', data: { uploadId: await own.upload(ten) } },
                    { id: 'all', type: 'FILTER', data: { source: '{{rows.rows}}', expr: 'n >= 0' } }
                ],
                edges: [
                    { source: 'start', target: 'rows' },
                    { source: 'rows', target: 'all' }
                ]
            };
            const run = await own.run(await own.workflow(graph));
            expect(run.status).toBe('SUCCESS');
            return { accountId: account.accountId, runId: run.runId };
        };
        const [a, b, c] = [await accountWithRun(), await accountWithRun(), await accountWithRun()];

        // The uploads, as this process reads them again, wait until released: the reads stay under way.
        let release: () => void = () => {};
        const released = new Promise<void>((resolve) => {
            release = resolve;
        });
        const opened: string[] = [];
        const turns = createRecomputeTurns(2, 100);
        const read = createNodeOutputReader(
            t.app.ctx.db,
            {
                uploads: {
                    async iterateUploadRows(accountId) {
                        opened.push(accountId);
                        await released;
                        return (async function* () {
                            yield* Array.from({ length: 10 }, (_, n) => ({ n }));
                        })();
                    }
                },
                google: { readDriveRows: async () => [] }
            },
            turns
        );
        const page = (who: { accountId: string; runId: string }, offset = 6) => read(who.accountId, who.runId, 'all', offset, 2);
        const refusal = (promise: Promise<unknown>) => promise.then(() => null, (err: Boom) => ({ status: err.output.statusCode, retryAfter: err.output.headers['Retry-After'], message: err.message }));

        const first = page(a);
        await vi.waitFor(() => expect(opened).toEqual([a.accountId]));
        expect(await refusal(page(a, 8))).toEqual({ status: 429, retryAfter: '2', message: expect.stringMatching(/one at a time per account/) });
        // What the summary holds needs no reading again.
        expect((await page(a, 0)).output).toEqual({ items: [{ n: 0 }, { n: 1 }], count: 10 });
        const second = page(b);
        await vi.waitFor(() => expect(opened).toEqual([a.accountId, b.accountId]));
        // Both slots are taken by other accounts: C waits for one rather than being refused.
        const third = refusal(page(c)).then((refused) => refused ?? 'answered');
        await vi.waitFor(() => expect(turns.waiting).toBe(1));
        expect(opened).toEqual([a.accountId, b.accountId]);
        // C's second page while its first waits is its own load.
        expect(await refusal(page(c, 8))).toMatchObject({ status: 429 });

        release();
        expect((await first).output).toEqual({ items: [{ n: 6 }, { n: 7 }], count: 10 });
        expect((await second).output).toEqual({ items: [{ n: 6 }, { n: 7 }], count: 10 });
        expect(await third).toBe('answered');
        expect(opened).toEqual([a.accountId, b.accountId, c.accountId]);
        expect((await page(c, 8)).output).toEqual({ items: [{ n: 8 }, { n: 9 }], count: 10 });
        expect((await page(a, 8)).output).toEqual({ items: [{ n: 8 }, { n: 9 }], count: 10 });
    });

    it('answers a page the run detail holds whole from it, without reading the upload again', async () => {
        const account = await createAccount(t);
        const own = runsApi(t, account);
        const three = ['n', '1', '2', '3'].join('\n');
        const run = await own.run(
            await own.workflow({
                nodes: [
                    { id: 'start', type: 'TRIGGER', data: {} },
                    { id: 'rows', type: 'DATA_SOURCE', data: { uploadId: await own.upload(three) } },
                    { id: 'some', type: 'FILTER', data: { source: '{{rows.rows}}', expr: 'n >= 2' } }
                ],
                edges: [
                    { source: 'start', target: 'rows' },
                    { source: 'rows', target: 'some' }
                ]
            })
        );
        expect(run.status).toBe('SUCCESS');

        const opened: string[] = [];
        const read = createNodeOutputReader(t.app.ctx.db, {
            uploads: {
                async iterateUploadRows(accountId) {
                    opened.push(accountId);
                    throw new Error('read again although the run detail holds the page');
                }
            },
            google: { readDriveRows: async () => [] }
        });
        // The default page (100) and pages starting inside the summary ask for more than it holds,
        // but the output has no more: the summary is all of it.
        expect((await read(account.accountId, run.runId, 'rows', 0, 100)).output).toEqual({ rows: [{ n: 1 }, { n: 2 }, { n: 3 }], count: 3 });
        expect((await read(account.accountId, run.runId, 'some', 1, 100)).output).toEqual({ items: [{ n: 3 }], count: 2 });
        expect(opened).toEqual([]);

        const res = await own.call('GET', `/api/workflows/runs/${run.runId}/nodes/some/output`);
        expect(res.json).toMatchObject({ total: 2, offset: 0, limit: 100, output: { items: [{ n: 2 }, { n: 3 }], count: 2 } });
    });
});
