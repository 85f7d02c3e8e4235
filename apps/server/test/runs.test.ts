import Crypto from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { CITY_BODY, ms, newsletter, runsApi } from './run-fixtures.js';

describe('runs: CSV -> FILTER -> OUTPUT end to end', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;
    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
        api = runsApi(t, account);
    });
    afterAll(() => t.close());

    /** Addresses unique to one test, so the shared SMTP sink can be read per test. */
    const tagged = () => {
        const tag = Crypto.randomBytes(3).toString('hex');
        return (name: string) => `${name}.${tag}@example.test`;
    };
    const mailTo = (domainTag: (name: string) => string) => t.smtp.messages.filter((m) => m.to.some((to) => to.endsWith(domainTag('').slice(1))));

    it('delivers exactly the expected e-mails and reports every node', async () => {
        const at = tagged();
        const csv = [
            'name,email,age,city,subscribed',
            `Ada,${at('ada')},36,London,true`,
            `Alan,${at('alan')},41,Manchester,true`,
            `Grace,${at('grace')},85,New York,false`,
            `Linus,${at('linus')},29,Helsinki,true`
        ].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'subscribed && age > 30', { body: CITY_BODY }));

        const enqueued = await api.call('POST', `/api/workflows/${workflowId}/run`);
        expect(enqueued.statusCode).toBe(202);
        expect(enqueued.json).toEqual({ runId: expect.stringMatching(/^run_[0-9a-z]{20}$/), status: 'PENDING', workflowId, triggeredAt: expect.any(String) });

        const run = await api.waitFor(enqueued.json.runId);
        expect(run).toMatchObject({ runId: enqueued.json.runId, workflowId, status: 'SUCCESS', error: null, result: { totalRows: 4, filteredOut: 2, emailsSent: 2 } });
        expect(run.createdAt).toBe(enqueued.json.triggeredAt);
        expect(run.enqueuedAt).toBe(run.createdAt);
        expect(run.triggeredAt).toBe(run.createdAt);
        expect(ms(run.startedAt)).toBeGreaterThanOrEqual(ms(run.createdAt));
        expect(ms(run.completedAt)).toBeGreaterThanOrEqual(ms(run.startedAt));

        expect(run.nodes.map((n) => [n.nodeId, n.type, n.status, n.error])).toEqual([
            ['start', 'TRIGGER', 'SUCCESS', null],
            ['people', 'DATA_SOURCE', 'SUCCESS', null],
            ['audience', 'FILTER', 'SUCCESS', null],
            ['send', 'OUTPUT', 'SUCCESS', null]
        ]);
        for (const node of run.nodes) {
            expect(node.startedAt).toEqual(expect.any(String));
            expect(node.completedAt).toEqual(expect.any(String));
        }

        expect(api.node(run, 'start').output).toEqual({});
        expect(api.node(run, 'people').output.rows.count).toBe(4);
        expect(api.node(run, 'people').output.rows.first[0]).toEqual({ name: 'Ada', email: at('ada'), age: 36, city: 'London', subscribed: true });
        expect(api.node(run, 'audience').output.items).toEqual({ count: 2, first: [expect.objectContaining({ name: 'Ada' }), expect.objectContaining({ name: 'Alan' })] });
        expect(api.node(run, 'send').output).toEqual({ emailsSent: 2 });

        // A run sends several e-mails at once: they may arrive in any order.
        const mails = mailTo(at).sort((a, b) => String(a.to[0]).localeCompare(String(b.to[0])));
        expect(mails.map((m) => m.to)).toEqual([[at('ada')], [at('alan')]]);
        expect(mails[0]).toMatchObject({ from: 'no-reply@flowctl.test', subject: 'Hello Ada', text: 'Hi Ada,\nsee you in London.' });
        expect(mails[1]).toMatchObject({ subject: 'Hello Alan', text: 'Hi Alan,\nsee you in Manchester.' });

        // The worker counts a run once its end is written, so a reader can see SUCCESS a moment before the
        // count (seen on PostgreSQL on a loaded machine).
        await vi.waitFor(async () => {
            const metrics = (await t.request({ method: 'GET', url: '/metrics' })).payload;
            expect(metrics).toMatch(/^flowctl_runs_finished_total\{status="SUCCESS"\} [1-9]/m);
            expect(metrics).toMatch(/^flowctl_run_emails_sent_total [2-9]/m);
            expect(metrics).toMatch(/^flowctl_run_pickup_seconds_count [1-9]/m);
        }, { timeout: 30_000, interval: 50 });
    });

    it('compares numbers numerically, numeric strings too, and other strings as text', async () => {
        const at = tagged();
        const csv = ['name,email,age,city,zip', `Ann,${at('ann')},9,Porto,007`, `Bob,${at('bob')},10,Lisbon,100`, `Cid,${at('cid')},100,Braga,20`].join('\n');
        const uploadId = await api.upload(csv);

        // 9 < 10 < 100 as numbers (as text '9' would sort last); '10' is a numeric string.
        const numeric = await api.run(await api.workflow(newsletter(uploadId, "age >= '10'")));
        expect(numeric.result).toEqual({ totalRows: 3, filteredOut: 1, emailsSent: 2 });
        expect(mailTo(at).map((m) => m.to[0]).sort()).toEqual([at('bob'), at('cid')]);

        // Cells with leading zeros stay strings; 'L' < 'Lisbon' < 'P' compares as text.
        const text = await api.run(await api.workflow(newsletter(uploadId, "city > 'L' && city < 'P' || zip == '007'")));
        expect(text.result).toEqual({ totalRows: 3, filteredOut: 1, emailsSent: 2 });
        expect(mailTo(at).slice(2).map((m) => m.to[0]).sort()).toEqual([at('ann'), at('bob')]);
        expect(api.node(text, 'people').output.rows.first[0]).toMatchObject({ age: 9, zip: '007' });
    });

    it('reads a file whose header ends LF and rows CRLF without a CR in any value: a FILTER on the value matches', async () => {
        const uploadId = await api.upload('name,email\nAda,ada@example.com\r\nBob,bob@example.com\r\n');
        const graph = {
            nodes: [
                { id: 'start', type: 'TRIGGER', data: {} },
                { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
                { id: 'ada', type: 'FILTER', data: { source: '{{people.rows}}', expr: "email == 'ada@example.com'" } }
            ],
            edges: [
                { source: 'start', target: 'people' },
                { source: 'people', target: 'ada' }
            ]
        };
        const run = await api.run(await api.workflow(graph));
        expect(run).toMatchObject({ status: 'SUCCESS', error: null, result: { totalRows: 2, filteredOut: 1, emailsSent: 0 } });
        expect(api.node(run, 'people').output.rows).toEqual({
            count: 2,
            first: [
                { name: 'Ada', email: 'ada@example.com' },
                { name: 'Bob', email: 'bob@example.com' }
            ]
        });
        expect(api.node(run, 'ada').output.items).toEqual({ count: 1, first: [{ name: 'Ada', email: 'ada@example.com' }] });
    });

    it('treats an empty FILTER result as success: no e-mails, empty items', async () => {
        const at = tagged();
        const uploadId = await api.upload(`name,email,age,city\nAda,${at('ada')},36,London\n`);
        const run = await api.run(await api.workflow(newsletter(uploadId, 'age > 100')));
        expect(run.status).toBe('SUCCESS');
        expect(run.result).toEqual({ totalRows: 1, filteredOut: 1, emailsSent: 0 });
        expect(api.node(run, 'audience').output).toEqual({ items: { count: 0, first: [] }, count: 0 });
        expect(api.node(run, 'send')).toMatchObject({ status: 'SUCCESS', output: { emailsSent: 0 } });
        expect(mailTo(at)).toEqual([]);
    });

    it('fails the run on bad addresses, naming them, and still sends the valid ones', async () => {
        const at = tagged();
        t.smtp.reject(at('bounce'));
        const csv = ['name,email,age,city', `Ada,${at('ada')},36,London`, 'Bad,not-an-address,40,Paris', 'Empty,,50,Rome', `Bounce,${at('bounce')},60,Oslo`, `Alan,${at('alan')},41,Manchester`].join(
            '\n'
        );
        const run = await api.run(await api.workflow(newsletter(await api.upload(csv), 'age > 0')));
        expect(run.status).toBe('FAILED');
        expect(run.result).toMatchObject({ totalRows: 5, emailsSent: 2 });
        const send = api.node(run, 'send');
        expect(send.status).toBe('FAILED');
        expect(send.error).toContain('3 of 5 e-mails failed');
        expect(send.error).toContain("#1: invalid recipient address 'not-an-address'");
        expect(send.error).toContain('#2: empty recipient address');
        expect(send.error).toMatch(/#3: the mail transport rejected it: .*550/);
        expect(send.output).toEqual({ emailsSent: 2 });
        expect(run.error).toBe(`node 'send' failed: ${send.error}`);
        expect(mailTo(at).map((m) => m.to[0]).sort()).toEqual([at('ada'), at('alan')]);
    });

    it('joins two DATA_SOURCE nodes into one OUTPUT (fan-in)', async () => {
        const at = tagged();
        const staff = await api.upload(`name,email\nAda,${at('ada')}\nAlan,${at('alan')}\n`);
        const offices = await api.upload('city,open\nLondon,true\nPorto,false\n');
        const graph = {
            nodes: [
                { id: 'start', type: 'TRIGGER', data: {} },
                { id: 'staff', type: 'DATA_SOURCE', data: { uploadId: staff } },
                { id: 'offices', type: 'DATA_SOURCE', data: { uploadId: offices } },
                { id: 'open', type: 'FILTER', data: { source: '{{offices.rows}}', expr: 'open' } },
                { id: 'send', type: 'OUTPUT', data: { forEach: '{{staff.rows}}', to: '{{item.email}}', subject: 'Offices', body: '{{item.name}}: {{open.items}}' } }
            ],
            edges: [
                { source: 'start', target: 'staff' },
                { source: 'start', target: 'offices' },
                { source: 'offices', target: 'open' },
                { source: 'staff', target: 'send' },
                { source: 'open', target: 'send' }
            ]
        };
        const run = await api.run(await api.workflow(graph));
        expect(run.status).toBe('SUCCESS');
        expect(run.result).toEqual({ totalRows: 4, filteredOut: 1, emailsSent: 2 });
        expect(mailTo(at).map((m) => m.text).sort()).toEqual(['Ada: [{"city":"London","open":true}]', 'Alan: [{"city":"London","open":true}]']);
    });

    it('keeps the graph a run was enqueued with when the workflow changes', async () => {
        const at = tagged();
        const uploadId = await api.upload(`name,email,age,city\nAda,${at('ada')},36,London\n`);
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 0', { subject: 'first version' }));
        const runId = await api.enqueue(workflowId);
        const patched = await api.call('PATCH', `/api/workflows/${workflowId}`, { graph: newsletter(uploadId, 'age > 0', { subject: 'second version' }) });
        expect(patched.statusCode).toBe(200);
        await api.waitFor(runId);
        await api.run(workflowId);
        expect(mailTo(at).map((m) => m.subject)).toEqual(['first version', 'second version']);
    });
});
