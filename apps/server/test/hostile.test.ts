import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { loadConfig } from '../src/config.js';
import { type GatedSmtp, startGatedSmtp } from './gated-smtp.js';
import { startTestServer, type TestServer } from './harness.js';
import { type OpenAiStub, startOpenAiStub } from './openai-stub.js';
import { newsletter, runsApi } from './run-fixtures.js';

/** TRIGGER -> people -> ask (AI, one string output). */
const aiGraph = (uploadId: string) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'ask', type: 'AI', data: { prompt: 'Summarize {{people.rows}}', output: [{ name: 'headline', type: 'string' }] } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'ask' }
    ]
});

/**
 * Hostile requests over HTTP. After each one, another account's ordinary requests must still
 * answer 200: one bad request once broke the embedded store for everyone until a restart.
 */
describe('hostile inputs leave the service working for everyone', () => {
    let stub: OpenAiStub;
    let smtp: GatedSmtp;
    let t: TestServer;
    let attacker: TestAccount;
    let bystander: TestAccount;
    let attack: ReturnType<typeof runsApi>;
    let attackerUpload: string;
    let attackerWorkflow: string;
    let bystanderWorkflow: string;
    beforeAll(async () => {
        stub = await startOpenAiStub();
        smtp = await startGatedSmtp();
        // One SMTP connection: the gated sink holds one message at a time, so a run waits in OUTPUT where the test wants it.
        t = await startTestServer({
            config: { smtpUrl: smtp.url, smtp: { ...loadConfig({}).smtp, connections: 1 }, ai: { apiKey: 'sk-test', baseUrl: stub.baseUrl, model: 'gpt-test' } }
        });
        attacker = await createAccount(t);
        bystander = await createAccount(t);
        attack = runsApi(t, attacker);
        attackerUpload = await attack.upload('name,email\nAda,ada@hostile.example.test\n');
        attackerWorkflow = await attack.workflow(newsletter(attackerUpload, 'true'));
        bystanderWorkflow = await runsApi(t, bystander).workflow(newsletter(await runsApi(t, bystander).upload('name,email\nBo,bo@ok.example.test\n'), 'true'));
    });
    afterAll(async () => {
        await t?.close();
        await smtp?.close();
        await stub?.close();
    });

    /** The other account's everyday requests, and readiness. */
    const expectOthersServed = async () => {
        const as = (method: string, url: string, payload?: object) => t.request({ method, url, headers: bystander.headers, ...(payload ? { payload } : {}) });
        const statuses = {
            uploads: (await as('GET', '/api/uploads')).statusCode,
            workflows: (await as('GET', '/api/workflows')).statusCode,
            workflow: (await as('GET', `/api/workflows/${bystanderWorkflow}`)).statusCode,
            runs: (await as('GET', `/api/workflows/${bystanderWorkflow}/runs`)).statusCode,
            rename: (await as('PATCH', `/api/workflows/${bystanderWorkflow}`, { name: 'Still mine' })).statusCode,
            settings: (await as('GET', '/api/account/settings')).statusCode,
            ready: (await t.request({ method: 'GET', url: '/readyz' })).statusCode
        };
        expect(statuses).toEqual({ uploads: 200, workflows: 200, workflow: 200, runs: 200, rename: 200, settings: 200, ready: 200 });
    };

    const graphWithSubject = (subject: string) => newsletter('upl_placeholder', 'true', { subject });

    const refused: Array<{ name: string; method: string; url: () => string; payload?: () => object; path: string; named?: string; auth?: false }> = [
        { name: 'NUL as an upload id', method: 'GET', url: () => '/api/uploads/%00', path: 'uploadId' },
        { name: 'NUL inside a workflow id', method: 'GET', url: () => '/api/workflows/wf_%00x', path: 'workflowId' },
        { name: 'NUL as a run id', method: 'GET', url: () => '/api/workflows/runs/%00', path: 'runId' },
        { name: 'NUL in a query parameter', method: 'GET', url: () => `/api/workflows/${attackerWorkflow}/runs?order=%00`, path: 'order' },
        {
            name: 'a lone surrogate in a graph string',
            method: 'POST',
            url: () => '/api/workflows',
            payload: () => ({ name: 'Surrogate', graph: graphWithSubject('Hello \ud800') }),
            path: 'graph.nodes[3].data.subject'
        },
        { name: 'NUL in a workflow name', method: 'PATCH', url: () => `/api/workflows/${attackerWorkflow}`, payload: () => ({ name: 'a\u0000b' }), path: 'name' },
        {
            name: 'NUL in a field name',
            method: 'PATCH',
            url: () => `/api/workflows/${attackerWorkflow}`,
            payload: () => ({ graph: { nodes: [{ id: 'start', type: 'TRIGGER', data: { 'x\u0000': 1 } }], edges: [] } }),
            path: 'graph.nodes[0].data.x\u0000',
            named: 'graph.nodes[0].data'
        },
        { name: 'NUL in ai.model', method: 'PUT', url: () => '/api/account/settings', payload: () => ({ ai: { model: 'gpt\u0000' } }), path: 'ai.model' },
        { name: 'a lone low surrogate in ai.model', method: 'PUT', url: () => '/api/account/settings', payload: () => ({ ai: { model: '\udc00gpt' } }), path: 'ai.model' },
        {
            name: 'NUL in a login e-mail',
            method: 'POST',
            url: () => '/api/auth/login',
            payload: () => ({ email: 'a\u0000@example.test', password: 'x' }),
            path: 'email',
            auth: false
        },
        {
            name: 'NUL in a sign-up name',
            method: 'POST',
            url: () => '/api/auth/register',
            payload: () => ({ email: 'nul-name@example.test', password: 'long enough password', fullName: 'Eve\u0000' }),
            path: 'fullName',
            auth: false
        }
    ];

    for (const input of refused) {
        it(`answers 400 naming the field for ${input.name}`, async () => {
            const res = await t.request({
                method: input.method,
                url: input.url(),
                ...(input.auth === false ? {} : { headers: attacker.headers }),
                ...(input.payload ? { payload: input.payload() } : {})
            });
            expect(res.statusCode, res.payload).toBe(400);
            expect(res.json.details).toEqual([{ path: input.path, message: expect.stringMatching(/NUL character|lone UTF-16 surrogate/) }]);
            expect(res.json.message).toContain(input.named ?? input.path);
            await expectOthersServed();
        });
    }

    it('names at most 10 problems in the message and 100 in details, however many there are', async () => {
        const payload: Record<string, unknown> = { name: 'Many fields', graph: { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] } };
        for (let i = 0; i < 70_000; i++) {
            payload[`k${i}`] = 1;
        }

        const res = await t.request({ method: 'POST', url: '/api/workflows', headers: attacker.headers, payload });
        expect(res.statusCode).toBe(400);
        expect(res.payload.length).toBeLessThan(16 * 1024);
        expect(res.json.message).toMatch(/^Invalid request payload: 'k0' is not allowed; 'k1' is not allowed; .*'k9' is not allowed; and 69,990 more \(the first 100 in details\)$/);
        expect(res.json.details).toHaveLength(100);
        expect(res.json.details[99]).toEqual({ path: 'k99', message: "'k99' is not allowed" });
    });

    it('keeps an upload filename with a NUL storable', async () => {
        const res = await fetch(`${t.url}/api/uploads`, {
            method: 'POST',
            headers: { ...attacker.headers, 'content-type': 'multipart/form-data; boundary=XX' },
            body: '--XX\r\nContent-Disposition: form-data; name="file"; filename="a\u0000b.csv"\r\nContent-Type: text/csv\r\n\r\nname\nAda\n\r\n--XX--\r\n'
        });
        expect(res.status).toBeLessThan(500);
        await expectOthersServed();
    });

    for (const [name, headline] of [
        ['a NUL', 'Top\u0000news'],
        ['a lone surrogate', 'Top\ud800news']
    ]) {
        it(`stores a model reply with ${name} with U+FFFD in its place`, async () => {
            stub.queue({ content: JSON.stringify({ headline }) });
            const run = await attack.run(await attack.workflow(aiGraph(attackerUpload)));
            expect(run.status).toBe('SUCCESS');
            expect(attack.node(run, 'ask').output).toEqual({ headline: 'Top\ufffdnews', aiCalls: 1, aiPromptTokens: 10, aiCompletionTokens: 10 });
            const output = await attack.call('GET', `/api/workflows/runs/${run.runId}/nodes/ask/output`);
            expect(output.statusCode).toBe(200);
            await expectOthersServed();
        });
    }

    it('fails the node with a readable error when the model reply with a NUL is not JSON', async () => {
        // Asked again once, the model answers the same.
        stub.queue({ content: 'not json \u0000 at all' }, { content: 'not json \u0000 at all' });
        const run = await attack.run(await attack.workflow(aiGraph(attackerUpload)));
        expect(run.status).toBe('FAILED');
        expect(attack.node(run, 'ask').error).toBe('language-model reply did not match the declared output schema: the reply is not JSON: not json \ufffd at all');
        await expectOthersServed();
    });

    /** A RUNNING run held at its first e-mail, until the test answers it. */
    const heldRun = async () => {
        const people = await attack.upload('name,email\nAda,ada@held.example.test\nBo,bo@held.example.test\n');
        const workflowId = await attack.workflow(newsletter(people, 'true'));
        const first = smtp.holdAt(smtp.accepted.length + 1);
        const runId = await attack.enqueue(workflowId);
        const pending = await attack.enqueue(workflowId);
        return { workflowId, runId, pending, held: await first };
    };

    it('cancels the runs of a workflow deleted while one is RUNNING, then deletes it', async () => {
        const { workflowId, runId, pending, held } = await heldRun();
        // The cancel interrupts the e-mail in flight, the run lets go of the workflow, and only then is it removed.
        const deleted = await attack.call('DELETE', `/api/workflows/${workflowId}`);
        expect(deleted.statusCode, deleted.payload).toBe(204);
        held.answer(true);
        for (const id of [runId, pending]) {
            expect((await attack.call('GET', `/api/workflows/runs/${id}`)).statusCode).toBe(404);
        }
        expect((await attack.call('GET', `/api/workflows/${workflowId}`)).statusCode).toBe(404);
        // Nothing of the workflow is left for a worker to write to.
        const left = await t.app.ctx.db.query('SELECT 1 FROM workflow_leases WHERE workflow_id = $1 UNION ALL SELECT 1 FROM runs WHERE workflow_id = $1', [workflowId]);
        expect(left).toEqual([]);
        await expectOthersServed();
    });

    it('answers 409 naming the run when it does not stop in time; the run still ends CANCELLED', async () => {
        // A run executing in a worker process that does not answer: its lease is held, and nothing here can stop it.
        const people = await attack.upload('name,email\nAda,ada@stuck.example.test\n');
        const workflowId = await attack.workflow(newsletter(people, 'true'));
        const { db } = t.app.ctx;
        await db.query("INSERT INTO workflow_leases (workflow_id, holder, token, expires_at) VALUES ($1, 'elsewhere', 'elsewhere', now() + interval '1 hour')", [workflowId]);
        const runId = await attack.enqueue(workflowId);
        await db.query("UPDATE runs SET status = 'RUNNING', started_at = now() WHERE id = $1", [runId]);

        const refusal = await attack.call('DELETE', `/api/workflows/${workflowId}`);
        expect(refusal.statusCode).toBe(409);
        expect(refusal.json.message).toContain(`run '${runId}'`);

        // That worker died: its lease runs out, another takes the run over and finds it cancelled.
        await db.query("UPDATE workflow_leases SET expires_at = now() - interval '1 second' WHERE workflow_id = $1", [workflowId]);
        expect((await attack.waitFor(runId, undefined, 30_000)).status).toBe('CANCELLED');
        expect((await attack.call('DELETE', `/api/workflows/${workflowId}`)).statusCode).toBe(204);
        await expectOthersServed();
    });
});
