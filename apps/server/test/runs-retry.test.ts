import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { CITY_BODY, newsletter, runsApi } from './run-fixtures.js';

const header = (raw: string, name: string): string => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(raw)?.[1]?.trim() ?? '';

describe('runs: retrying the failed e-mails of a run', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;

    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
        api = runsApi(t, account);
    });
    afterAll(() => t.close());

    it('sends again only the rows the mail server refused, as rendered then, and nobody gets an e-mail twice', async () => {
        const recipients = Array.from({ length: 6 }, (_, i) => `r${i}@retry.example.test`);
        const csv = ['name,email,age,city', ...recipients.map((email, i) => `R${i},${email},${20 + i},Lisbon`)].join('\n');
        const uploadId = await api.upload(csv);
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 0', { body: CITY_BODY }));

        // The first two messages are refused for good (5xx: not retried within the run).
        t.smtp.failNext(2, 550);
        const failed = await api.run(workflowId);
        expect(failed.status).toBe('FAILED');
        expect(failed.result.emailsSent).toBe(4);
        expect(api.node(failed, 'send').error).toMatch(/^2 of 6 e-mails failed: #0: .*550.*; #1: .*550/);
        const before = t.smtp.messages.filter((m) => m.to[0]?.endsWith('@retry.example.test')).length;

        const res = await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`);
        expect(res.statusCode, res.payload).toBe(202);
        expect(res.json).toEqual({ runId: expect.any(String), status: 'PENDING', workflowId, triggeredAt: expect.any(String) });
        const retry = await api.waitFor(res.json.runId);
        expect(retry).toMatchObject({ status: 'SUCCESS', retryOf: failed.runId, trigger: { type: 'retry' }, error: null, result: { totalRows: 2, filteredOut: 0, emailsSent: 2 } });
        // The nodes feeding the retried e-mails did their work in the retried run.
        expect(retry.nodes.map((n) => [n.nodeId, n.status, n.output])).toEqual([
            ['start', 'SUCCESS', { reused: true }],
            ['people', 'SUCCESS', { reused: true }],
            ['audience', 'SUCCESS', { reused: true }],
            ['send', 'SUCCESS', { emailsSent: 2 }]
        ]);
        expect(api.node(retry, 'send').output).toEqual({ emailsSent: 2 });

        const received = t.smtp.messages.filter((m) => m.to[0]?.endsWith('@retry.example.test'));
        expect(received.slice(before).map((m) => [m.to[0], m.subject, m.text]).sort()).toEqual([
            [recipients[0], 'Hello R0', 'Hi R0,\nsee you in Lisbon.'],
            [recipients[1], 'Hello R1', 'Hi R1,\nsee you in Lisbon.']
        ]);
        // Each recipient got the e-mail once, counting both runs; each retried message has its own Message-ID.
        expect(received.map((m) => m.to[0]).sort()).toEqual([...recipients].sort());
        expect(header(received[before]!.raw, 'Message-ID')).toBe(`<${retry.runId}.send.0@flowctl.test>`);

        // Nothing is left to retry, in the run or in its retry.
        for (const runId of [failed.runId, retry.runId]) {
            const again = await api.call('POST', `/api/workflows/runs/${runId}/retry`);
            expect(again.statusCode).toBe(409);
            expect(again.json.message).toMatch(/has no failed e-mails left to retry/);
        }
    });

    it('retries a retry that failed again, and queues a second retry of the same run without sending twice', async () => {
        const csv = ['name,email,age,city', 'A,a@again.example.test,30,Porto', 'B,b@again.example.test,31,Porto'].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        t.smtp.failNext(2, 550);
        const failed = await api.run(workflowId);
        expect(failed.result.emailsSent).toBe(0);

        t.smtp.failNext(1, 550);
        const first = await api.waitFor((await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`)).json.runId);
        expect(first).toMatchObject({ status: 'FAILED', result: { emailsSent: 1 } });
        expect(api.node(first, 'send').error).toMatch(/^1 of 2 retried e-mails failed again: #0: /);

        // Two retries queued at once, of the first run and of the retry: only one still-failed row is left.
        // Both wait behind another run of the workflow, held at its first e-mail: had the first retry
        // started, its e-mail under way (or accepted) would leave the second nothing to retry (409).
        const held = t.smtp.hold(1);
        const other = await api.enqueue(workflowId);
        await held;
        const viaFirst = (await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`)).json.runId;
        const second = await api.call('POST', `/api/workflows/runs/${first.runId}/retry`);
        expect(second.statusCode, second.payload).toBe(202);
        t.smtp.release();
        await api.waitFor(other);
        const [a, b] = [await api.waitFor(viaFirst), await api.waitFor(second.json.runId)];
        expect([a.result.emailsSent, b.result.emailsSent]).toEqual([1, 0]);
        // Counting the retries' e-mails only (their Message-IDs name their run): the failed row once.
        const retried = t.smtp.messages.filter((m) => [first.runId, a.runId, b.runId].some((id) => header(m.raw, 'Message-ID').startsWith(`<${id}.`)));
        expect(retried.map((m) => m.to[0]).sort()).toEqual(['a@again.example.test', 'b@again.example.test']);
    });

    it('answers 404 for unknown and foreign runs, and 409 for runs not ended or with nothing to retry', async () => {
        const csv = ['name,email,age,city', 'C,c@ok.example.test,30,Porto'].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        const ok = await api.run(workflowId);
        expect(ok.status).toBe('SUCCESS');

        const conflict = await api.call('POST', `/api/workflows/runs/${ok.runId}/retry`);
        expect(conflict.statusCode).toBe(409);

        const stranger = runsApi(t, await createAccount(t));
        for (const runId of [ok.runId, 'run_doesnotexist']) {
            const res = await stranger.call('POST', `/api/workflows/runs/${runId}/retry`);
            expect(res.statusCode).toBe(404);
            expect(res.json.message).toBe(`Run '${runId}' not found`);
        }

        // A run that has not ended: its one e-mail is slow to be accepted.
        t.smtp.delay(1500);
        const running = await api.enqueue(workflowId);
        await api.waitFor(running, (run) => run.status === 'RUNNING');
        const early = await api.call('POST', `/api/workflows/runs/${running}/retry`);
        expect(early.statusCode).toBe(409);
        expect(early.json.message).toBe(`Run '${running}' is RUNNING: wait until it ends, then retry its failed e-mails`);
        t.smtp.delay(0);
        await api.waitFor(running);
    });
});
