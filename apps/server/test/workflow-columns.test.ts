// Issue 28: names no column has are refused when a workflow is saved (create, PATCH), and an element
// whose template reads a field it lacks fails at run time instead of being sent with a blank.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';
import { uploadCsv } from './upload-fixtures.js';

const CSV = 'name,email,age,subscribed\nAda,ada@cols.example.test,36,true\nBob,bob@cols.example.test,17,true\nCy,cy@cols.example.test,51,false\n';

describe('workflow columns', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;
    let uploadId: string;
    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
        api = runsApi(t, account);
        const upload = await uploadCsv(t, account, CSV, { filename: 'contacts.csv' });
        expect(upload.status).toBe(201);
        uploadId = upload.json.uploadId;
    });
    afterAll(() => t.close());

    /** The fixture's body reads a `city` this upload does not have. */
    const mail = (expr: string, output: Partial<Record<'to' | 'subject' | 'body', string>> = {}) => newsletter(uploadId, expr, { body: 'Hi {{item.name}}', ...output });
    const post = (graph: unknown) => api.call('POST', '/api/workflows', { name: 'columns', graph });

    it("refuses the issue's workflow at create with 400, naming each node, field and nearest column", async () => {
        const res = await post(mail('subscribd == true', { subject: 'Hi {{item.nmae}}', body: 'Hi {{item.nmae}}, {{item.age}}' }));
        expect(res.statusCode).toBe(400);
        expect(res.json.details).toEqual([
            { path: 'graph.nodes[2].data.expr', message: "'subscribd' in the filter of node 'audience': no such column in upload contacts.csv; did you mean 'subscribed'?" },
            { path: 'graph.nodes[3].data.subject', message: "{{item.nmae}} in 'subject' of node 'send': no such column in upload contacts.csv; did you mean 'name'?" },
            { path: 'graph.nodes[3].data.body', message: "{{item.nmae}} in 'body' of node 'send': no such column in upload contacts.csv; did you mean 'name'?" }
        ]);
        expect(res.json.message).toMatch(/^Invalid workflow graph \(3 problems\): graph\.nodes\[2\]\.data\.expr: 'subscribd'/);
    });

    it('accepts names that reach the node through FILTER and AI forEach items, and checks nothing of an unknown upload but that it is unknown', async () => {
        expect((await post(mail('subscribed && age >= 18', { body: 'Hi {{item.name}}, {{item.age}}' }))).statusCode).toBe(201);

        const withAi = mail("tone == 'warm'", { subject: '{{item.tone}} {{item.name}}', body: '{{item.tnoe}}' });
        withAi.nodes.splice(2, 0, {
            id: 'tag',
            type: 'AI',
            data: { forEach: '{{people.rows}}', prompt: 'Tone for {{item.name}}', output: [{ name: 'tone', type: 'string' }] }
        } as never);
        (withAi.nodes[3]!.data as { source: string }).source = '{{tag.items}}';
        withAi.edges.splice(1, 1, { source: 'people', target: 'tag' }, { source: 'tag', target: 'audience' });
        const res = await post(withAi);
        expect(res.statusCode).toBe(400);
        expect(res.json.details).toEqual([
            {
                path: 'graph.nodes[4].data.body',
                message: "{{item.tnoe}} in 'body' of node 'send': no such field in upload contacts.csv or the outputs of AI node 'tag'; did you mean 'tone'?"
            }
        ]);

        const unknown = await post(newsletter('upl_nothere', 'subscribd == true', { subject: 'Hi {{item.nmae}}' }));
        expect(unknown.statusCode).toBe(400);
        expect(unknown.json.details).toEqual([{ path: 'graph.nodes[1].data.uploadId', message: expect.stringMatching(/^upload 'upl_nothere' not found/) }]);
    });

    it('refuses a PATCH that adds a mistake, and lets through one the stored workflow already had', async () => {
        const created = await post(mail('subscribed'));
        expect(created.statusCode).toBe(201);
        const id = created.json.workflowId as string;

        const typo = await api.call('PATCH', `/api/workflows/${id}`, { graph: mail('subscribed', { subject: 'Hi {{item.Name}}' }) });
        expect(typo.statusCode).toBe(400);
        expect(typo.json.details).toEqual([
            { path: 'graph.nodes[3].data.subject', message: "{{item.Name}} in 'subject' of node 'send': no such column in upload contacts.csv; did you mean 'name'?" }
        ]);

        // A workflow saved before names were checked, as the store may hold.
        const old = mail('subscribed', { subject: 'Hi {{item.nmae}}' });
        await t.app.ctx.db.query('UPDATE workflows SET graph = $2::jsonb WHERE id = $1', [id, JSON.stringify(old)]);

        const unrelated = mail('subscribed && age >= 18', { subject: 'Hi {{item.nmae}}' });
        const fixedElsewhere = await api.call('PATCH', `/api/workflows/${id}`, { graph: unrelated });
        expect(fixedElsewhere.statusCode, fixedElsewhere.payload).toBe(200);
        expect(fixedElsewhere.json.graph).toEqual(unrelated);

        const another = await api.call('PATCH', `/api/workflows/${id}`, { graph: mail('subscribed && agee >= 18', { subject: 'Hi {{item.nmae}}' }) });
        expect(another.statusCode).toBe(400);
        expect(another.json.details).toEqual([{ path: 'graph.nodes[2].data.expr', message: expect.stringMatching(/^'agee' in the filter of node 'audience'.*did you mean 'age'\?$/) }]);

        expect((await api.call('PATCH', `/api/workflows/${id}`, { name: 'renamed' })).statusCode).toBe(200);
        expect((await api.call('PATCH', `/api/workflows/${id}`, { graph: mail('subscribed') })).statusCode).toBe(200);
    });

    it('at run time fails each element whose template reads a field it lacks, and sends the rest to the SMTP sink', async () => {
        const graph = mail('subscribed', { subject: 'Welcome {{item.name}}', body: 'Hi {{item.name}}, you are {{item.age}}.' });
        graph.nodes.push({
            id: 'typo',
            type: 'OUTPUT',
            data: { forEach: '{{audience.items}}', to: '{{item.email}}', subject: 'Hi {{item.nmae}}', body: 'Hi {{item.nmae}}, {{item.subscribed}}' }
        } as never);
        graph.edges.push({ source: 'audience', target: 'typo' });
        // Saved before names were checked: create would refuse it now.
        const id = await api.workflow(mail('subscribed'));
        await t.app.ctx.db.query('UPDATE workflows SET graph = $2::jsonb WHERE id = $1', [id, JSON.stringify(graph)]);
        await t.app.ctx.db.query('UPDATE workflow_revisions SET graph = $2::jsonb WHERE workflow_id = $1', [id, JSON.stringify(graph)]);

        const before = t.smtp.messages.length;
        const run = await api.run(id);
        expect(run.status).toBe('FAILED');
        expect(api.node(run, 'send')).toMatchObject({ status: 'SUCCESS' });
        expect(api.node(run, 'typo')).toMatchObject({
            status: 'FAILED',
            error:
                "2 of 2 e-mails failed: #0: {{item.nmae}}: the element has no field 'nmae' (did you mean 'name'?); " +
                "#1: {{item.nmae}}: the element has no field 'nmae' (did you mean 'name'?)"
        });
        expect(run.result).toMatchObject({ totalRows: 3, emailsSent: 2 });
        const received = t.smtp.messages.slice(before);
        expect(received.map((m) => m.subject).sort()).toEqual(['Welcome Ada', 'Welcome Bob']);
        expect(received.some((m) => m.subject.startsWith('Hi'))).toBe(false);
    });
});
