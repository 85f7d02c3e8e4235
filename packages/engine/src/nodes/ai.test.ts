import { describe, expect, it } from 'vitest';
import { executeRun } from '../executor.js';
import { chain, output, source, trigger } from '../graph/fixtures.test-helpers.js';
import type { AiData, Graph, NodeState } from '../types.js';
import { fakePorts, people } from './fake-ports.test-helpers.js';

function aiGraph(data: Partial<AiData> = {}): Graph {
    return {
        nodes: [
            trigger(),
            source(),
            {
                id: 'ai',
                type: 'AI',
                data: {
                    prompt: 'Summarise {{ds.rows}}',
                    output: [
                        { name: 'summary', type: 'string' },
                        { name: 'tags', type: 'array' }
                    ],
                    ...data
                }
            },
            output('mail', '{{ds.rows}}', { body: '{{ai.summary}} / {{ai.tags}}' })
        ],
        edges: chain('start', 'ds', 'ai', 'mail')
    };
}

const cost = (calls: number) => ({ aiCalls: calls, aiPromptTokens: 3 * calls, aiCompletionTokens: 2 * calls });
const node = (outcome: { nodes: NodeState[] }, id: string) => outcome.nodes.find((n) => n.nodeId === id) as NodeState;
const rows = { 'up-1': people.slice(0, 2) };

describe('AI', () => {
    it('makes one structured call and exposes the validated fields', async () => {
        const ports = fakePorts({ rows, reply: () => ({ summary: 'two people', tags: ['x', 'y'] }) });
        const outcome = await executeRun(aiGraph({ model: 'gpt-test', system: 'Rows: {{ds.rows}}' }), { ports });
        expect(outcome.status).toBe('SUCCESS');
        expect(ports.requests).toHaveLength(1);
        const request = ports.requests[0];
        expect(request).toMatchObject({ nodeId: 'ai', index: null, model: 'gpt-test', output: (aiGraph().nodes[2] as { data: AiData }).data.output });
        expect(request?.prompt).toBe(`Summarise ${JSON.stringify(rows['up-1'])}`);
        expect(request?.system).toBe(`Rows: ${JSON.stringify(rows['up-1'])}`);
        expect(request?.schema).toMatchObject({ required: ['summary', 'tags'], additionalProperties: false });
        expect(node(outcome, 'ai').output).toEqual({ summary: 'two people', tags: ['x', 'y'], ...cost(1) });
        expect(outcome.result).toMatchObject(cost(1));
        expect(ports.sent[0]?.message.body).toBe('two people / ["x","y"]');
    });

    it('omits model and system from the request when not configured', async () => {
        const ports = fakePorts({ rows, reply: () => ({ summary: 's', tags: [] }) });
        await executeRun(aiGraph(), { ports });
        expect(Object.keys(ports.requests[0] ?? {})).toEqual(['nodeId', 'index', 'prompt', 'output', 'schema']);
    });

    it('calls once per forEach element and collects arrays of per-element values', async () => {
        const ports = fakePorts({ rows, reply: (r) => ({ summary: `about ${r.prompt}`, tags: [String(r.index)] }) });
        const outcome = await executeRun(aiGraph({ forEach: '{{ ds.rows }}', prompt: 'Describe {{item.name}} ({{item.age}})' }), { ports });
        expect(ports.requests.map((r) => [r.index, r.prompt])).toEqual([
            [0, 'Describe Ann (34)'],
            [1, 'Describe Bob (17)']
        ]);
        expect(node(outcome, 'ai').output).toEqual({
            items: [
                { ...people[0], summary: 'about Describe Ann (34)', tags: ['0'] },
                { ...people[1], summary: 'about Describe Bob (17)', tags: ['1'] }
            ],
            summary: ['about Describe Ann (34)', 'about Describe Bob (17)'],
            tags: [['0'], ['1']],
            ...cost(2)
        });
    });

    it('lets the port defer elements: nothing is paid or validated for them, their fields are null and counted as aiNotAsked', async () => {
        // A preview asks only for the elements the e-mails it shows need; the port declines the rest.
        const ports = fakePorts({
            rows: { 'up-1': people },
            answer: (r) =>
                r.index !== null && r.index >= 1
                    ? { reply: undefined, text: '', deferred: true }
                    : { reply: { summary: `about ${r.prompt}`, tags: [] }, text: '', usage: { promptTokens: 3, completionTokens: 2 } }
        });
        const recorded: number[] = [];
        ports.recordReply = (request) => {
            recorded.push(request.index ?? -1);
        };
        const outcome = await executeRun(aiGraph({ forEach: '{{ds.rows}}', prompt: '{{item.name}}' }), { ports });
        expect(outcome.status).toBe('SUCCESS');
        expect(node(outcome, 'ai').output).toMatchObject({ summary: ['about Ann', null, null], aiNotAsked: 2, ...cost(1) });
        expect((node(outcome, 'ai').output as { items: unknown[] }).items[2]).toEqual({ ...people[2], summary: null, tags: null });
        expect(recorded).toEqual([0]);
        expect(outcome.result).toMatchObject(cost(1));
    });

    it('a deferred single call gives null fields and aiNotAsked 1', async () => {
        const ports = fakePorts({ rows, answer: () => ({ reply: undefined, text: '', deferred: true }) });
        const outcome = await executeRun(aiGraph(), { ports });
        expect(node(outcome, 'ai').output).toEqual({ summary: null, tags: null, aiNotAsked: 1, ...cost(0) });
    });

    it('joins each reply to its own row, so an OUTPUT over items writes each row its own line', async () => {
        const ports = fakePorts({ rows, reply: (r) => ({ summary: `line for ${r.prompt}`, tags: [] }) });
        const graph = aiGraph({ forEach: '{{ds.rows}}', prompt: '{{item.name}}' });
        graph.nodes[3] = output('mail', '{{ai.items}}', { body: '{{item.summary}}' });
        const outcome = await executeRun(graph, { ports });
        expect(outcome.status).toBe('SUCCESS');
        expect(ports.sent.map((s) => [s.message.to, s.message.body])).toEqual([
            ['ann@example.com', 'line for Ann'],
            ['bob@example.com', 'line for Bob']
        ]);
    });

    it('wraps elements that are not objects as {value}, and a declared field replaces a column of the same name', async () => {
        const graph: Graph = {
            nodes: [
                trigger(),
                source(),
                { id: 'ai', type: 'AI', data: { forEach: '{{ds.rows}}', prompt: '{{item.name}}', output: [{ name: 'city', type: 'string' }] } },
                { id: 'words', type: 'AI', data: { forEach: '{{ai.city}}', prompt: '{{item}}', output: [{ name: 'upper', type: 'string' }] } }
            ],
            edges: chain('start', 'ds', 'ai', 'words')
        };
        const ports = fakePorts({ rows, reply: (r) => (r.nodeId === 'ai' ? { city: `new home of ${r.prompt}` } : { upper: r.prompt.toUpperCase() }) });
        const outcome = await executeRun(graph, { ports });
        expect((node(outcome, 'ai').output as { items: unknown[] }).items[0]).toEqual({ ...people[0], city: 'new home of Ann' });
        expect(node(outcome, 'words').output?.items).toEqual([
            { value: 'new home of Ann', upper: 'NEW HOME OF ANN' },
            { value: 'new home of Bob', upper: 'NEW HOME OF BOB' }
        ]);
    });

    it('keeps element order whatever order replies arrive in, with no more calls in flight than aiConcurrency', async () => {
        const many = Array.from({ length: 40 }, (_, i) => ({ name: `p${i}`, age: i, email: `p${i}@example.com`, city: 'X' }));
        let inFlight = 0;
        let peak = 0;
        const waiting: Array<() => void> = [];
        const ports = fakePorts({
            rows: { 'up-1': many },
            aiConcurrency: 4,
            answer: async (r) => {
                inFlight++;
                peak = Math.max(peak, inFlight);
                // Each call waits for the next one to start (or for the last ones): replies come back newest first.
                await new Promise<void>((resolve) => {
                    waiting.push(resolve);
                    if (waiting.length === 4 || (r.index as number) >= 36) for (const wake of waiting.splice(0).reverse()) wake();
                });
                inFlight--;
                return { reply: { summary: `s${r.index}`, tags: [] }, text: '' };
            }
        });
        const outcome = await executeRun(aiGraph({ forEach: '{{ds.rows}}', prompt: '{{item.name}}' }), { ports });
        expect(outcome.status).toBe('SUCCESS');
        expect(peak).toBe(4);
        expect(node(outcome, 'ai').output?.summary).toEqual(many.map((_, i) => `s${i}`));
        expect((node(outcome, 'ai').output as { items: Array<{ name: string }> }).items.map((item) => item.name)).toEqual(many.map((p) => p.name));
    });

    it('asks again once with the validation message, and uses the corrected reply', async () => {
        const recorded: unknown[] = [];
        const ports = fakePorts({ rows, reply: (r) => (r.correction ? { summary: 'fixed', tags: [] } : { summary: 'first' }) });
        ports.recordReply = (request, reply, spent) => {
            recorded.push([request.index, reply, spent]);
        };
        const outcome = await executeRun(aiGraph({ forEach: '{{ds.rows}}', prompt: '{{item.name}}' }), { ports });
        expect(outcome.status).toBe('SUCCESS');
        expect(ports.requests.map((r) => [r.index, r.correction])).toEqual([
            [0, undefined],
            [0, { reply: '{"summary":"first"}', problem: "missing field 'tags'" }],
            [1, undefined],
            [1, { reply: '{"summary":"first"}', problem: "missing field 'tags'" }]
        ]);
        expect(node(outcome, 'ai').output?.summary).toEqual(['fixed', 'fixed']);
        expect(recorded).toEqual([
            [0, { summary: 'fixed', tags: [] }, { calls: 2, promptTokens: 6, completionTokens: 4 }],
            [1, { summary: 'fixed', tags: [] }, { calls: 2, promptTokens: 6, completionTokens: 4 }]
        ]);
        expect(outcome.result).toMatchObject(cost(4));
    });

    it('asks again once when the reply is not JSON, then fails naming the element', async () => {
        const ports = fakePorts({
            rows,
            answer: (r) =>
                r.index === 1
                    ? { reply: undefined, text: 'Sure!', notJson: 'the reply is not JSON: Sure!', usage: { promptTokens: 3, completionTokens: 2 } }
                    : { reply: { summary: 's', tags: [] }, text: '' }
        });
        const outcome = await executeRun(aiGraph({ forEach: '{{ds.rows}}', prompt: '{{item.name}}' }), { ports });
        expect(ports.requests.filter((r) => r.index === 1).map((r) => r.correction)).toEqual([
            undefined,
            { reply: 'Sure!', problem: 'the reply is not JSON: Sure!' }
        ]);
        expect(node(outcome, 'ai').error).toBe('language-model reply did not match the declared output schema: element #1: the reply is not JSON: Sure!');
        // What was paid for shows on the failed node.
        expect(node(outcome, 'ai').output).toEqual({ aiCalls: 3, aiPromptTokens: 6, aiCompletionTokens: 4 });
    });

    it('does not record again, and counts what it cost, a reply recorded by an earlier attempt', async () => {
        const recorded: unknown[] = [];
        const ports = fakePorts({
            rows,
            answer: (r) =>
                r.index === 0
                    ? { reply: { summary: 'old', tags: [] }, text: '', recorded: true, calls: 2, usage: { promptTokens: 7, completionTokens: 1 } }
                    : { reply: { summary: 'new', tags: [] }, text: '', usage: { promptTokens: 3, completionTokens: 2 } }
        });
        ports.recordReply = (request) => {
            recorded.push(request.index);
        };
        const outcome = await executeRun(aiGraph({ forEach: '{{ds.rows}}', prompt: '{{item.name}}' }), { ports });
        expect(node(outcome, 'ai').output?.summary).toEqual(['old', 'new']);
        expect(recorded).toEqual([1]);
        expect(outcome.result).toMatchObject({ aiCalls: 3, aiPromptTokens: 10, aiCompletionTokens: 3 });
    });

    it('fails with the schema-mismatch message', async () => {
        const single = await executeRun(aiGraph(), { ports: fakePorts({ rows, reply: () => ({ summary: 's', tags: 'x, y' }) }) });
        expect(single.status).toBe('FAILED');
        expect(node(single, 'ai').error).toBe("language-model reply did not match the declared output schema: field 'tags' must be an array, got a string");
        expect(node(single, 'mail').status).toBe('SKIPPED');
        const each = await executeRun(aiGraph({ forEach: '{{ds.rows}}', prompt: '{{item.name}}' }), {
            ports: fakePorts({ rows, reply: (r) => (r.index === 1 ? { summary: 's' } : { summary: 's', tags: [] }) })
        });
        expect(node(each, 'ai').error).toBe("language-model reply did not match the declared output schema: element #1: missing field 'tags'");
    });

    it('fails with the port message when the model cannot be called', async () => {
        const outcome = await executeRun(aiGraph(), { ports: fakePorts({ rows }) });
        expect(node(outcome, 'ai').error).toBe('no language model configured');
    });

    it('starts the next call of a lane only once the previous reply is recorded', async () => {
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
            release = resolve;
        });
        const ports = fakePorts({ rows, aiConcurrency: 1, reply: () => ({ summary: 's', tags: [] }) });
        ports.recordReply = () => held;
        const outcome = executeRun(aiGraph({ forEach: '{{ds.rows}}', prompt: '{{item.name}}' }), { ports });
        await new Promise((resolve) => setTimeout(resolve, 0));
        // A crash now would repeat only the call whose reply is not recorded yet.
        expect(ports.requests.map((r) => r.index)).toEqual([0]);
        release();
        expect((await outcome).status).toBe('SUCCESS');
        expect(ports.requests.map((r) => r.index)).toEqual([0, 1]);
    });

    it('aborts the calls in flight and starts no more when cancelled', async () => {
        const controller = new AbortController();
        const aborted: number[] = [];
        const ports = fakePorts({
            rows: { 'up-1': people },
            aiConcurrency: 2,
            answer: (r, ctx) =>
                new Promise((_, reject) => {
                    ctx.signal.addEventListener('abort', () => {
                        aborted.push(r.index as number);
                        reject(new Error('aborted'));
                    });
                    if (r.index === 1) controller.abort();
                })
        });
        const outcome = await executeRun(aiGraph({ forEach: '{{ds.rows}}', prompt: '{{item.name}}' }), { ports, signal: controller.signal });
        expect(outcome.status).toBe('CANCELLED');
        expect(aborted.sort()).toEqual([0, 1]);
        expect(ports.requests.map((r) => r.index)).toEqual([0, 1]);
        expect(node(outcome, 'ai').error).toBe('run cancelled after 0 of 3 language-model calls');
    });

    it('stops between forEach elements when cancelled', async () => {
        const controller = new AbortController();
        const ports = fakePorts({
            rows: { 'up-1': people },
            reply: (r) => {
                if (r.index === 1) controller.abort();
                return { summary: 's', tags: [] };
            }
        });
        const outcome = await executeRun(aiGraph({ forEach: '{{ds.rows}}', prompt: '{{item.name}}' }), { ports, signal: controller.signal });
        expect(outcome.status).toBe('CANCELLED');
        expect(node(outcome, 'ai').error).toBe('run cancelled after 2 of 3 language-model calls');
        expect(node(outcome, 'mail').status).toBe('SKIPPED');
    });
});

describe('cancellation between nodes', () => {
    it('skips everything when cancelled before the run starts', async () => {
        const controller = new AbortController();
        controller.abort();
        const ports = fakePorts({ rows });
        const outcome = await executeRun(aiGraph(), { ports, signal: controller.signal });
        expect(outcome.status).toBe('CANCELLED');
        expect(outcome.nodes.every((n) => n.status === 'SKIPPED')).toBe(true);
        expect(ports.loads).toEqual([]);
    });

    it('fails the current node with "run cancelled" when its port gives up on abort', async () => {
        const controller = new AbortController();
        const ports = fakePorts({
            rows: {
                'up-1': () => {
                    controller.abort();
                    throw new Error('The operation was aborted');
                }
            }
        });
        const outcome = await executeRun(aiGraph(), { ports, signal: controller.signal });
        expect(outcome.status).toBe('CANCELLED');
        expect(outcome.nodes.map((n) => [n.nodeId, n.status, n.error])).toEqual([
            ['start', 'SUCCESS', null],
            ['ds', 'FAILED', 'run cancelled'],
            ['ai', 'SKIPPED', null],
            ['mail', 'SKIPPED', null]
        ]);
    });

    it('keeps a node that finished despite a late abort, then cancels the rest', async () => {
        const controller = new AbortController();
        const ports = fakePorts({
            rows: {
                'up-1': () => {
                    controller.abort();
                    return people;
                }
            }
        });
        const outcome = await executeRun(aiGraph(), { ports, signal: controller.signal });
        expect(outcome.status).toBe('CANCELLED');
        expect(outcome.nodes.map((n) => n.status)).toEqual(['SUCCESS', 'SUCCESS', 'SKIPPED', 'SKIPPED']);
        expect(outcome.result.totalRows).toBe(3);
    });
});
