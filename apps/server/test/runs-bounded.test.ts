import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
});
