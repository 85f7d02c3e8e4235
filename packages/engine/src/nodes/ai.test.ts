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
        expect(node(outcome, 'ai').output).toEqual({ summary: 'two people', tags: ['x', 'y'] });
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
            summary: ['about Describe Ann (34)', 'about Describe Bob (17)'],
            tags: [['0'], ['1']]
        });
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
