import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { type OpenAiStub, startOpenAiStub } from './openai-stub.js';
import { runsApi } from './run-fixtures.js';

const CSV = 'name,email,team\nAda,ada@ai.example.test,core\nAlan,alan@ai.example.test,infra\n';

/** TRIGGER -> people -> summarize (AI) -> send (OUTPUT, reads the AI output), plus a FILTER branch. */
const aiGraph = (uploadId: string, ai: Record<string, unknown> = {}) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        {
            id: 'summarize',
            type: 'AI',
            data: {
                prompt: 'Write a headline for this team list: {{people.rows}}',
                system: 'You write short headlines.',
                output: [
                    { name: 'headline', type: 'string' },
                    { name: 'tags', type: 'array' }
                ],
                ...ai
            }
        },
        { id: 'core', type: 'FILTER', data: { source: '{{people.rows}}', expr: "team == 'core'" } },
        { id: 'send', type: 'OUTPUT', data: { forEach: '{{people.rows}}', to: '{{item.email}}', subject: '{{summarize.headline}}', body: 'Tags: {{summarize.tags}}' } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'summarize' },
        { source: 'people', target: 'core' },
        { source: 'summarize', target: 'send' }
    ]
});

describe('runs: the AI node against an OpenAI-protocol server', () => {
    let stub: OpenAiStub;
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;
    let uploadId: string;
    beforeAll(async () => {
        stub = await startOpenAiStub();
        // Accounts point their base URL at the stub, on loopback.
        t = await startTestServer({ config: { ai: { apiKey: 'sk-server-default', baseUrl: stub.baseUrl, model: 'gpt-server-default' }, allowPrivateNetwork: true } });
        account = await createAccount(t);
        api = runsApi(t, account);
        uploadId = await api.upload(CSV);
    });
    afterAll(async () => {
        await t.close();
        await stub.close();
    });

    it('sends the rendered prompt with a JSON schema and uses the validated reply downstream', async () => {
        const before = stub.requests.length;
        stub.queue({ content: JSON.stringify({ headline: 'Two teams, one goal', tags: ['core', 'infra'] }) });
        const run = await api.run(await api.workflow(aiGraph(uploadId)));
        expect(run.status).toBe('SUCCESS');
        expect(api.node(run, 'summarize').output).toEqual({
            headline: 'Two teams, one goal',
            tags: { count: 2, first: ['core', 'infra'] },
            aiCalls: 1,
            aiPromptTokens: 10,
            aiCompletionTokens: 10
        });
        expect(run.result).toEqual({ totalRows: 2, filteredOut: 1, emailsSent: 2, aiCalls: 1, aiPromptTokens: 10, aiCompletionTokens: 10 });

        const request = stub.requests[before]!;
        expect(request.headers.authorization).toBe('Bearer sk-server-default');
        expect(request.body.model).toBe('gpt-server-default');
        expect(request.body.messages).toEqual([
            { role: 'system', content: 'You write short headlines.' },
            {
                role: 'user',
                content:
                    'Write a headline for this team list: [{"name":"Ada","email":"ada@ai.example.test","team":"core"},{"name":"Alan","email":"alan@ai.example.test","team":"infra"}]'
            }
        ]);
        expect(request.body.response_format).toEqual({
            type: 'json_schema',
            json_schema: {
                name: 'output',
                strict: true,
                schema: {
                    type: 'object',
                    properties: { headline: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
                    required: ['headline', 'tags'],
                    additionalProperties: false
                }
            }
        });

        // Sent several at once: they may arrive in any order.
        const mails = t.smtp.messages.filter((m) => m.subject === 'Two teams, one goal');
        expect(mails.map((m) => [m.to[0], m.text]).sort()).toEqual([
            ['ada@ai.example.test', 'Tags: ["core","infra"]'],
            ['alan@ai.example.test', 'Tags: ["core","infra"]']
        ]);
    });

    it('fails the node when the reply does not match the schema twice; nodes reading it are SKIPPED, other branches run', async () => {
        const before = stub.requests.length;
        stub.queue({ content: JSON.stringify({ headline: 42 }) }, { content: JSON.stringify({ headline: 43 }) });
        const run = await api.run(await api.workflow(aiGraph(uploadId)));
        expect(run.status).toBe('FAILED');
        const ai = api.node(run, 'summarize');
        expect(ai.status).toBe('FAILED');
        expect(ai.error).toMatch(/^language-model reply did not match the declared output schema: /);
        expect(ai.error).toContain("field 'headline' must be a string");
        expect(ai.error).toContain("missing field 'tags'");
        // Asked again once, with the first reply and what was wrong with it.
        expect(stub.requests.length - before).toBe(2);
        expect(stub.requests[before + 1]!.body.messages.slice(2)).toEqual([
            { role: 'assistant', content: '{"headline":42}' },
            { role: 'user', content: expect.stringContaining("did not match the declared output schema: field 'headline' must be a string, got a number; missing field 'tags'") }
        ]);
        expect(run.error).toBe(`node 'summarize' failed: ${ai.error}`);
        expect(api.node(run, 'send')).toMatchObject({ status: 'SKIPPED', error: null, startedAt: null, completedAt: null, output: null });
        expect(api.node(run, 'core')).toMatchObject({ status: 'SUCCESS', output: { items: { count: 1, first: [expect.objectContaining({ name: 'Ada' })] } } });
        expect(run.result.emailsSent).toBe(0);
    });

    it('names a reply that is not JSON, after asking again once', async () => {
        stub.queue({ content: 'Sure! Here is your headline: Teams' }, { content: 'Sure! Here it is again: Teams' });
        const run = await api.run(await api.workflow(aiGraph(uploadId)));
        expect(api.node(run, 'summarize').error).toBe(
            'language-model reply did not match the declared output schema: the reply is not JSON: Sure! Here it is again: Teams'
        );
        expect(run.result).toMatchObject({ aiCalls: 2, aiPromptTokens: 20, aiCompletionTokens: 20 });
    });

    it('uses the reply to the second asking when the first was not JSON', async () => {
        stub.queue({ content: 'Sure! Here is your headline: Teams' }, { content: JSON.stringify({ headline: 'Teams', tags: [] }) });
        const run = await api.run(await api.workflow(aiGraph(uploadId)));
        expect(run.status).toBe('SUCCESS');
        expect(api.node(run, 'summarize').output).toMatchObject({ headline: 'Teams', aiCalls: 2 });
    });

    it('retries 429 and 5xx answers, then succeeds', async () => {
        const before = stub.requests.length;
        stub.queue(
            { status: 429, error: 'Rate limit reached', headers: { 'retry-after-ms': '10' } },
            { status: 503, error: 'overloaded', headers: { 'retry-after-ms': '10' } },
            { content: JSON.stringify({ headline: 'Third time lucky', tags: [] }) }
        );
        const run = await api.run(await api.workflow(aiGraph(uploadId)));
        expect(run.status).toBe('SUCCESS');
        expect(stub.requests.length - before).toBe(3);
        expect(api.node(run, 'summarize').output.headline).toBe('Third time lucky');
    });

    it('gives up after the retries with the endpoint’s answer in the node error', async () => {
        const before = stub.requests.length;
        const busy = { status: 500, error: 'upstream exploded', headers: { 'retry-after-ms': '5' } };
        stub.queue(busy, busy, busy, busy);
        const run = await api.run(await api.workflow(aiGraph(uploadId)));
        expect(stub.requests.length - before).toBe(4);
        expect(api.node(run, 'summarize').error).toBe('the language-model endpoint answered HTTP 500: 500 upstream exploded');
    });

    it('calls the model once per element with forEach, and collects each output as an array', async () => {
        stub.fallback((body) => ({ content: JSON.stringify({ greeting: `Hello, ${/name: (\w+)/.exec(body.messages.at(-1).content)?.[1]}!` }) }));
        const graph = {
            nodes: [
                { id: 'start', type: 'TRIGGER', data: {} },
                { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
                { id: 'greet', type: 'AI', data: { forEach: '{{people.rows}}', prompt: 'Greet name: {{item.name}}', output: [{ name: 'greeting', type: 'string' }], model: 'gpt-node' } }
            ],
            edges: [
                { source: 'start', target: 'people' },
                { source: 'people', target: 'greet' }
            ]
        };
        const before = stub.requests.length;
        const run = await api.run(await api.workflow(graph));
        expect(run.status).toBe('SUCCESS');
        expect(api.node(run, 'greet').output).toEqual({
            items: {
                count: 2,
                first: [
                    { name: 'Ada', email: 'ada@ai.example.test', team: 'core', greeting: 'Hello, Ada!' },
                    { name: 'Alan', email: 'alan@ai.example.test', team: 'infra', greeting: 'Hello, Alan!' }
                ]
            },
            greeting: { count: 2, first: ['Hello, Ada!', 'Hello, Alan!'] },
            aiCalls: 2,
            aiPromptTokens: 20,
            aiCompletionTokens: 20
        });
        expect(stub.requests.slice(before).map((r) => r.body.model)).toEqual(['gpt-node', 'gpt-node']);
    });

    it("never sends the server's key to a base URL an account chose without a key of its own", async () => {
        const elsewhere = await startOpenAiStub();
        try {
            const other = await createAccount(t);
            const otherApi = runsApi(t, other);
            expect((await otherApi.call('PUT', '/api/account/settings', { ai: { baseUrl: elsewhere.baseUrl, model: 'gpt-account' } })).statusCode).toBe(200);
            const before = stub.requests.length;
            stub.queue({ content: JSON.stringify({ headline: 'Served by the server default', tags: [] }) });
            const run = await otherApi.run(await otherApi.workflow(aiGraph(await otherApi.upload(CSV))));
            expect(run.status).toBe('SUCCESS');
            expect(elsewhere.requests).toHaveLength(0);
            expect(stub.requests[before]!.headers.authorization).toBe('Bearer sk-server-default');
            expect(stub.requests[before]!.body.model).toBe('gpt-account');
        } finally {
            await elsewhere.close();
        }
    });

    it("uses the account's key, base URL and model over the server's", async () => {
        const own = await startOpenAiStub();
        try {
            const other = await createAccount(t);
            const otherApi = runsApi(t, other);
            const put = await otherApi.call('PUT', '/api/account/settings', { ai: { apiKey: 'sk-account-0123456789', baseUrl: own.baseUrl, model: 'gpt-account' } });
            expect(put.statusCode).toBe(200);
            own.queue({ content: JSON.stringify({ headline: 'Mine', tags: [] }) });
            const run = await otherApi.run(await otherApi.workflow(aiGraph(await otherApi.upload(CSV))));
            expect(run.status).toBe('SUCCESS');
            expect(own.requests).toHaveLength(1);
            expect(own.requests[0]!.headers.authorization).toBe('Bearer sk-account-0123456789');
            expect(own.requests[0]!.body.model).toBe('gpt-account');
        } finally {
            await own.close();
        }
    });
});

describe('runs: the AI node without any key', () => {
    let t: TestServer;
    beforeAll(async () => {
        t = await startTestServer({ config: { ai: { apiKey: null, baseUrl: null, model: null } } });
    });
    afterAll(() => t.close());

    it('fails the node with a message saying how to set a key', async () => {
        const api = runsApi(t, await createAccount(t));
        const run = await api.run(await api.workflow(aiGraph(await api.upload(CSV))));
        expect(run.status).toBe('FAILED');
        expect(api.node(run, 'summarize').error).toBe(
            "no AI API key configured: set one with `flowctl settings ai set --api-key-stdin`, PUT /api/account/settings {ai:{apiKey}}, or the server's OPENAI_API_KEY"
        );
        expect(api.node(run, 'send').status).toBe('SKIPPED');
    });
});

describe('runs: AI endpoints on private addresses, with the default ALLOW_PRIVATE_NETWORK=false', () => {
    let stub: OpenAiStub;
    let t: TestServer;
    beforeAll(async () => {
        stub = await startOpenAiStub();
        t = await startTestServer({ config: { ai: { apiKey: 'sk-server-default', baseUrl: stub.baseUrl, model: null } } });
    });
    afterAll(async () => {
        await t.close();
        await stub.close();
    });

    it("still calls the server's own OPENAI_BASE_URL on loopback", async () => {
        const api = runsApi(t, await createAccount(t));
        stub.queue({ content: JSON.stringify({ headline: 'Local model', tags: [] }) });
        const run = await api.run(await api.workflow(aiGraph(await api.upload(CSV))));
        expect(run.status).toBe('SUCCESS');
    });

    it("refuses an account's base URL on a private address: a literal when saved, a name when it resolves", async () => {
        const api = runsApi(t, await createAccount(t));
        const literal = await api.call('PUT', '/api/account/settings', { ai: { apiKey: 'sk-account-0123456789', baseUrl: stub.baseUrl } });
        expect(literal.statusCode).toBe(400);
        expect(literal.json.details).toEqual([{ path: 'ai.baseUrl', message: expect.stringMatching(/^127\.0\.0\.1 is a private or local address/) }]);

        const byName = stub.baseUrl.replace('127.0.0.1', 'localhost');
        expect((await api.call('PUT', '/api/account/settings', { ai: { apiKey: 'sk-account-0123456789', baseUrl: byName } })).statusCode).toBe(200);
        const before = stub.requests.length;
        const run = await api.run(await api.workflow(aiGraph(await api.upload(CSV))));
        expect(run.status).toBe('FAILED');
        expect(api.node(run, 'summarize').error).toMatch(
            /^could not reach the language-model endpoint http:\/\/localhost:\d+\/v1: localhost is a private or local address \((127\.0\.0\.1|::1)\); set ALLOW_PRIVATE_NETWORK=true on the server to allow it$/
        );
        expect(stub.requests).toHaveLength(before);
    });
});
