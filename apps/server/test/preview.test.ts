import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { type OpenAiStub, startOpenAiStub } from './openai-stub.js';
import { CITY_BODY, newsletter, runsApi } from './run-fixtures.js';

// Issue 28: POST /api/workflows/{id}/preview against a real server, a real SMTP sink (which must
// receive nothing from a preview, only test sends to the caller) and the OpenAI stub (counting calls).

const people = (n: number) =>
    `name,email,city,age\n${Array.from({ length: n }, (_, i) => `P${i},p${i}@rows.example.test,${i % 2 === 0 ? 'Paris' : 'Rome'},${20 + i}`).join('\n')}\n`;

const aiGraph = (uploadId: string, output: Record<string, string> = {}, between?: { expr: string }) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'write', type: 'AI', data: { forEach: '{{people.rows}}', prompt: 'A line for {{item.name}}', output: [{ name: 'line', type: 'string' }] } },
        ...(between ? [{ id: 'keep', type: 'FILTER', data: { source: '{{write.items}}', expr: between.expr } }] : []),
        {
            id: 'send',
            type: 'OUTPUT',
            data: { forEach: between ? '{{keep.items}}' : '{{write.items}}', to: output.to ?? '{{item.email}}', subject: 'Hi {{item.name}}', body: '{{item.line}}' }
        }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'write' },
        ...(between
            ? [
                  { source: 'write', target: 'keep' },
                  { source: 'keep', target: 'send' }
              ]
            : [{ source: 'write', target: 'send' }])
    ]
});

describe('preview: what a run would send, sending nothing', () => {
    let stub: OpenAiStub;
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;
    let uploadId: string;
    const preview = (workflowId: string, payload?: unknown, who: TestAccount = account) =>
        t.request({ method: 'POST', url: `/api/workflows/${workflowId}/preview`, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    const rowMails = () => t.smtp.messages.filter((m) => m.to.some((to) => to.endsWith('@rows.example.test')));

    beforeAll(async () => {
        stub = await startOpenAiStub();
        stub.fallback((body) => ({ content: JSON.stringify({ line: `line for ${String(body.messages.at(-1).content).slice(11)}` }) }));
        t = await startTestServer({ config: { ai: { apiKey: 'sk-test', baseUrl: stub.baseUrl, model: 'gpt-test' }, allowPrivateNetwork: true } });
        account = await createAccount(t);
        api = runsApi(t, account);
        uploadId = await api.upload(people(10));
    });
    afterAll(async () => {
        await t?.close();
        await stub?.close();
    });

    it('shows the first e-mails as a run renders them, every node, and the exact counts; sends and records nothing', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, "city == 'Paris'", { body: CITY_BODY }));
        const res = await preview(workflowId);
        expect(res.statusCode, res.payload).toBe(200);
        expect(res.json.emails).toEqual([0, 1, 2].map((index) => ({
            nodeId: 'send',
            index,
            from: t.config.mailFrom,
            to: `p${index * 2}@rows.example.test`,
            subject: `Hello P${index * 2}`,
            text: `Hi P${index * 2},\nsee you in Paris.`,
            suppressed: false
        })));
        expect(res.json.result).toEqual({ totalRows: 10, filteredOut: 5, emailsToSend: 5, suppressed: 0 });
        expect(res.json.nodes.map((n: { nodeId: string; status: string }) => [n.nodeId, n.status])).toEqual([
            ['start', 'SUCCESS'],
            ['people', 'SUCCESS'],
            ['audience', 'SUCCESS'],
            ['send', 'SUCCESS']
        ]);
        expect(res.json.nodes[2].output).toMatchObject({ count: 5, items: { count: 5 } });
        expect(res.json.nodes[3].output).toEqual({ emailsToSend: 5, suppressed: 0 });
        expect(res.json.testSent).toBeUndefined();

        // limit: up to 20, per OUTPUT node.
        const five = await preview(workflowId, { limit: 20 });
        expect(five.json.emails).toHaveLength(5);

        // No run, no e-mail.
        const runs = await api.call('GET', `/api/workflows/${workflowId}/runs`);
        expect(runs.json).toEqual([]);
        expect(t.smtp.messages).toEqual([]);
    });

    it('previews an unsaved graph; an invalid one is a 400 with every problem, like create', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, "city == 'Paris'"));
        const edited = await preview(workflowId, { limit: 1, graph: newsletter(uploadId, "city == 'Rome'", { subject: 'Ciao {{item.name}}' }) });
        expect(edited.statusCode, edited.payload).toBe(200);
        expect(edited.json.emails).toEqual([expect.objectContaining({ to: 'p1@rows.example.test', subject: 'Ciao P1' })]);

        const invalid = await preview(workflowId, { graph: { nodes: [{ id: 'a', type: 'NOPE', data: {} }], edges: [{ source: 'a', target: 'b' }] } });
        expect(invalid.statusCode).toBe(400);
        expect(invalid.json.details.length).toBeGreaterThanOrEqual(2);
        expect(invalid.json.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining([expect.stringMatching(/^graph\./)]));

        // A mistyped column is caught before anything is rendered, naming the nearest column.
        const typo = await preview(workflowId, { graph: newsletter(uploadId, "city == 'Rome'", { subject: 'Hi {{item.nmae}}' }) });
        expect(typo.statusCode).toBe(400);
        expect(typo.json.message).toMatch(/nmae.*did you mean 'name'/);
        expect(rowMails()).toEqual([]);
    });

    it('refuses bad input naming the field, and another account’s workflow is 404', async () => {
        const workflowId = await api.workflow(newsletter(uploadId, 'age > 0'));
        for (const [payload, field] of [
            [{ limit: 0 }, 'limit'],
            [{ limit: 21 }, 'limit'],
            [{ limit: 'many' }, 'limit'],
            [{ sendTestTo: 'someone@example.test' }, 'sendTestTo'],
            [{ colour: 'red' }, 'colour'],
            [{ graph: { nodes: Array.from({ length: 501 }, (_, i) => ({ id: `n${i}`, type: 'TRIGGER', data: {} })), edges: [] } }, 'graph.nodes']
        ] as const) {
            const res = await preview(workflowId, payload);
            expect(res.statusCode, JSON.stringify(payload)).toBe(400);
            expect(res.json.details.map((d: { path: string }) => d.path)).toContain(field);
        }

        const other = await createAccount(t);
        const res = await preview(workflowId, undefined, other);
        expect(res.statusCode).toBe(404);
        expect(res.json.message).not.toContain('people');
    });

    it('answers a FAILED node with its error, as the run would: an upload deleted, an invalid address', async () => {
        const gone = await api.upload(people(2));
        const workflowId = await api.workflow(newsletter(gone, 'age > 0'));
        // The API refuses to delete an upload a workflow reads (409); one removed before that rule, or
        // by hand, is gone all the same: its row is deleted in the store as that would leave it.
        expect((await api.call('DELETE', `/api/uploads/${gone}`)).statusCode).toBe(409);
        await t.app.ctx.db.query('DELETE FROM uploads WHERE id = $1', [gone]);
        const res = await preview(workflowId);
        expect(res.statusCode, res.payload).toBe(200);
        expect(res.json.nodes.find((n: { nodeId: string }) => n.nodeId === 'people')).toMatchObject({
            status: 'FAILED',
            error: `upload '${gone}' does not exist (it was deleted, or belongs to another account)`
        });
        expect(res.json.nodes.find((n: { nodeId: string }) => n.nodeId === 'send')).toMatchObject({ status: 'SKIPPED', output: null });
        expect(res.json.result).toEqual({ totalRows: 0, filteredOut: 0, emailsToSend: 0, suppressed: 0 });

        // Element #1 has no valid address: a run sends the others and fails the node naming it.
        const bad = await api.upload('name,email\nA,a@rows.example.test\nB,not-an-address\nC,c@rows.example.test\n');
        const mixed = await preview(await api.workflow(newsletter(bad, "name != ''", { body: 'x' })));
        expect(mixed.statusCode).toBe(200);
        expect(mixed.json.emails.map((e: { index: number }) => e.index)).toEqual([0, 2]);
        expect(mixed.json.nodes[3]).toMatchObject({ status: 'FAILED', error: expect.stringMatching(/^1 of 3 e-mails failed: #1: invalid recipient address/), output: { emailsToSend: 2 } });
        expect(mixed.json.result.emailsToSend).toBe(2);
        expect(rowMails()).toEqual([]);
    });

    it('asks the model only for the shown e-mails, records the replies, and a later run pays only for the rest', async () => {
        const workflowId = await api.workflow(aiGraph(uploadId));
        const before = stub.requests.length;
        const res = await preview(workflowId, { limit: 2 });
        expect(res.statusCode, res.payload).toBe(200);
        expect(stub.requests.length - before).toBe(2);
        expect(res.json.emails.map((e: { text: string }) => e.text)).toEqual(['line for P0', 'line for P1']);
        expect(res.json.nodes[2].output).toMatchObject({ aiNotAsked: 8, aiCalls: 2 });
        // The count does not depend on the replies not asked: `to` is a column.
        expect(res.json.result.emailsToSend).toBe(10);

        // Asked again, the preview pays nothing.
        await preview(workflowId, { limit: 2 });
        expect(stub.requests.length - before).toBe(2);

        // A preview followed by a run of 10 rows costs exactly 10 model calls.
        const run = await api.run(workflowId);
        expect(run.status).toBe('SUCCESS');
        expect(stub.requests.length - before).toBe(10);
        expect(run.result).toMatchObject({ emailsSent: 10, aiCalls: 8 });
        const lines = rowMails().filter((m) => m.subject === 'Hi P0' || m.subject === 'Hi P9');
        expect(lines.map((m) => m.text).sort()).toEqual(['line for P0', 'line for P9']);
    });

    it('says emailsToSend is unknown (null) when it depends on replies it did not ask for', async () => {
        const byFilter = await preview(await api.workflow(aiGraph(uploadId, {}, { expr: "line != ''" })), { limit: 1 });
        expect(byFilter.statusCode, byFilter.payload).toBe(200);
        expect(byFilter.json.result.emailsToSend).toBeNull();
        expect(byFilter.json.nodes.find((n: { nodeId: string }) => n.nodeId === 'send').output).toEqual({ emailsToSend: null, suppressed: 0 });

        const byAddress = await preview(await api.workflow(aiGraph(uploadId, { to: '{{item.line}}' })), { limit: 1 });
        expect(byAddress.json.result.emailsToSend).toBeNull();
    });

    it('sends a test of the shown e-mails to the caller only, prefixed [test], limited per hour', async () => {
        const me = await createAccount(t);
        const mine = runsApi(t, me);
        const rowsBefore = rowMails().length;
        const workflowId = await mine.workflow(newsletter(await mine.upload(people(4)), 'age > 0', { body: CITY_BODY }));
        const before = t.smtp.messages.length;
        const res = await preview(workflowId, { limit: 2, sendTestTo: 'me' }, me);
        expect(res.statusCode, res.payload).toBe(200);
        expect(res.json.testSent).toBe(2);
        await t.smtp.waitFor(before + 2);
        const sent = t.smtp.messages.slice(before);
        expect(sent.map((m) => [m.to, m.subject, m.text])).toEqual([
            [[me.email], '[test] Hello P0', 'Hi P0,\nsee you in Paris.'],
            [[me.email], '[test] Hello P1', 'Hi P1,\nsee you in Rome.']
        ]);
        expect(rowMails()).toHaveLength(rowsBefore);

        // Ten test sends an hour: the eleventh is refused, and a preview without one still answers.
        for (let i = 1; i < 10; i++) {
            expect((await preview(workflowId, { limit: 1, sendTestTo: 'me' }, me)).statusCode).toBe(200);
        }

        const refused = await preview(workflowId, { limit: 1, sendTestTo: 'me' }, me);
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect((await preview(workflowId, { limit: 1 }, me)).statusCode).toBe(200);
    });

    it('mails at most 20 test e-mails in one test send, however many OUTPUT nodes the graph has', async () => {
        // Found by an outside attack: ten OUTPUT nodes × 20 shown made one test send mail 200.
        const me = await createAccount(t);
        const mine = runsApi(t, me);
        const uploadId = await mine.upload(people(30));
        const outputs = Array.from({ length: 5 }, (_, i) => ({
            id: `send${i}`,
            type: 'OUTPUT',
            data: { forEach: '{{people.rows}}', to: '{{item.email}}', subject: `Copy ${i} for {{item.name}}`, body: 'Hi' }
        }));
        const workflowId = await mine.workflow({
            nodes: [{ id: 'start', type: 'TRIGGER', data: {} }, { id: 'people', type: 'DATA_SOURCE', data: { uploadId } }, ...outputs],
            edges: [{ source: 'start', target: 'people' }, ...outputs.map((o) => ({ source: 'people', target: o.id }))]
        });
        const before = t.smtp.messages.length;
        const res = await preview(workflowId, { limit: 20, sendTestTo: 'me' }, me);
        expect(res.statusCode, res.payload).toBe(200);
        expect(res.json.emails).toHaveLength(100);
        expect(res.json.testSent).toBe(20);
        await t.smtp.waitFor(before + 20);
        expect(t.smtp.messages.slice(before).every((m) => m.to.join() === me.email)).toBe(true);
        expect(t.smtp.messages.length - before).toBe(20);
    });

    it('runs one preview at a time per account: another answers 429 with Retry-After, other accounts go on', async () => {
        const workflowId = await api.workflow(aiGraph(uploadId));
        const other = await createAccount(t);
        const theirs = runsApi(t, other);
        const theirWorkflow = await theirs.workflow(newsletter(await theirs.upload(people(2)), 'age > 0'));
        let release: () => void = () => {};
        const gate = new Promise<void>((resolve) => {
            release = resolve;
        });
        stub.queue({ content: JSON.stringify({ line: 'held' }), after: gate });
        const before = stub.requests.length;
        const first = preview(workflowId, { limit: 1, graph: aiGraph(uploadId, { to: '{{item.email}}' }, { expr: "city != 'Nowhere'" }) });
        await stub.waitForRequests(before + 1);
        const second = await preview(workflowId, { limit: 1 });
        expect(second.statusCode).toBe(429);
        expect(second.headers['retry-after']).toBe('1');
        expect((await preview(theirWorkflow, undefined, other)).statusCode).toBe(200);
        release();
        expect((await first).statusCode).toBe(200);
        expect((await preview(workflowId, { limit: 1 })).statusCode).toBe(200);
    });
});
