import { describe, expect, it } from 'vitest';
import { executeRun } from '../executor.js';
import { chain, output, source, trigger } from '../graph/fixtures.test-helpers.js';
import type { Graph, NodeState, Row } from '../types.js';
import { fakePorts, people, recorder } from './fake-ports.test-helpers.js';

function mailGraph(fields: Partial<{ to: string; subject: string; body: string }> = {}): Graph {
    return {
        nodes: [trigger(), source(), output('mail', '{{ds.rows}}', fields), source('after', 'up-2')],
        edges: [...chain('start', 'ds', 'mail', 'after')]
    };
}

function node(outcome: { nodes: NodeState[] }, id: string): NodeState {
    return outcome.nodes.find((n) => n.nodeId === id) as NodeState;
}

const rows = (...emails: Array<string | null>): Row[] => emails.map((email, i) => ({ name: `P${i}`, email }));

describe('OUTPUT', () => {
    it('sends the valid e-mails and fails the node naming each failed element', async () => {
        const ports = fakePorts({
            rows: { 'up-1': rows('a@example.com', 'bob@', 'c@example.com', null, '  d@example.com ', 'e@example.com', 'Eve <e@x.com>') },
            beforeSend: (message) => {
                if (message.to === 'e@example.com') throw new Error('550 mailbox unavailable');
            }
        });
        const outcome = await executeRun(mailGraph(), { ports });
        expect(ports.sent.map((s) => [s.key.index, s.message.to])).toEqual([
            [0, 'a@example.com'],
            [2, 'c@example.com'],
            [4, 'd@example.com']
        ]);
        expect(outcome.status).toBe('FAILED');
        expect(node(outcome, 'mail')).toMatchObject({
            status: 'FAILED',
            output: { emailsSent: 3 },
            error:
                "4 of 7 e-mails failed: #1: invalid recipient address 'bob@' (the domain is invalid); #3: empty recipient address; " +
                '#5: the mail transport rejected it: 550 mailbox unavailable; ' +
                "#6: invalid recipient address 'Eve <e@x.com>' (write the bare address, without a display name or angle brackets)"
        });
        expect(node(outcome, 'after').status).toBe('SKIPPED');
        expect(outcome.result.emailsSent).toBe(3);
    });

    it('lists at most ten failures', async () => {
        const ports = fakePorts({ rows: { 'up-1': rows(...Array.from({ length: 25 }, (_, i) => (i === 3 ? 'ok@example.com' : `bad${i}`))) } });
        const outcome = await executeRun(mailGraph(), { ports });
        const error = node(outcome, 'mail').error as string;
        expect(error).toMatch(/^24 of 25 e-mails failed: #0: invalid recipient address 'bad0'/);
        expect(error.match(/#\d+:/g)).toHaveLength(10);
        expect(error).toMatch(/#10: .*; and 14 more$/);
        expect(outcome.result.emailsSent).toBe(1);
    });

    it('renders item fields, node outputs and raw values, and keeps subjects on one line', async () => {
        const ports = fakePorts({ rows: { 'up-1': [{ name: 'Ann\r\nBcc: x@y.z', email: 'ann@example.com', n: 3, tags: ['a'] }] as unknown as Row[], 'up-2': [] } });
        const outcome = await executeRun(
            mailGraph({ subject: 'Hi {{item.name}}', body: '{{item.n}} {{item.tags}} {{item.missing}}|{{ds.rows}}', to: '{{item.email}}' }),
            { ports }
        );
        expect(outcome.status).toBe('SUCCESS');
        expect(ports.sent[0]?.message).toEqual({
            to: 'ann@example.com',
            subject: 'Hi Ann Bcc: x@y.z',
            body: '3 ["a"] |[{"name":"Ann\\r\\nBcc: x@y.z","email":"ann@example.com","n":3,"tags":["a"]}]'
        });
    });

    it('accepts a whole-value recipient and a fixed one', async () => {
        const ports = fakePorts({ rows: { 'up-1': rows('a@example.com', 'b@example.com'), 'up-2': [] } });
        expect((await executeRun(mailGraph({ to: 'ops@example.com' }), { ports })).status).toBe('SUCCESS');
        expect(ports.sent.map((s) => s.message.to)).toEqual(['ops@example.com', 'ops@example.com']);
    });

    it('stops at the next element when the run is cancelled, and skips the rest', async () => {
        const controller = new AbortController();
        const ten = rows(...Array.from({ length: 10 }, (_, i) => `p${i}@example.com`));
        const ports = fakePorts({
            rows: { 'up-1': ten, 'up-2': [] },
            beforeSend: (_message, key) => {
                if (key.index === 2) controller.abort();
            }
        });
        const rec = recorder();
        const outcome = await executeRun(mailGraph(), { ports, signal: controller.signal, hooks: rec.hooks, now: rec.now });
        expect(outcome.status).toBe('CANCELLED');
        expect(ports.sent).toHaveLength(3);
        expect(node(outcome, 'mail')).toMatchObject({ status: 'FAILED', error: 'run cancelled after 3 of 10 e-mails (3 sent)', output: { emailsSent: 3 } });
        expect(node(outcome, 'after')).toMatchObject({ status: 'SKIPPED', startedAt: null, completedAt: null, error: null });
        expect(outcome.result.emailsSent).toBe(3);
        expect(rec.transitions().slice(-2)).toEqual(['mail:FAILED', 'after:SKIPPED']);
        expect(ports.signals[0]).toBe(controller.signal);
    });

    it('treats a transport error caused by cancellation as cancellation', async () => {
        const controller = new AbortController();
        const ports = fakePorts({
            rows: { 'up-1': rows('a@example.com', 'b@example.com') },
            beforeSend: (_m, key, ctx) => {
                if (key.index === 1) {
                    controller.abort();
                    throw ctx.signal.reason;
                }
            }
        });
        const outcome = await executeRun(mailGraph(), { ports, signal: controller.signal });
        expect(outcome.status).toBe('CANCELLED');
        expect(node(outcome, 'mail').error).toBe('run cancelled after 1 of 2 e-mails (1 sent)');
    });

    it('fails when forEach does not resolve to an array', async () => {
        const graph: Graph = {
            nodes: [trigger(), { id: 'ai', type: 'AI', data: { prompt: 'p', output: [{ name: 'list', type: 'array' }] } }, output('mail', '{{ai.list}}')],
            edges: chain('start', 'ai', 'mail')
        };
        const outcome = await executeRun(graph, { ports: fakePorts({ reply: () => ({ list: ['a'] }) }) });
        expect(node(outcome, 'mail').error).toMatch(/^1 of 1 e-mails failed: #0: empty recipient address/);
        const previous = outcome.nodes.map((n) => (n.nodeId === 'ai' ? { ...n, output: { list: 'nope' } } : n));
        const resumed = await executeRun(graph, { ports: fakePorts(), resume: previous });
        expect(node(resumed, 'mail').error).toBe("'forEach' {{ai.list}} must resolve to an array, got a string");
    });

    it('sends nothing and succeeds on an empty array', async () => {
        const ports = fakePorts({ rows: { 'up-1': [], 'up-2': [] } });
        const outcome = await executeRun(mailGraph(), { ports });
        expect(outcome.status).toBe('SUCCESS');
        expect(node(outcome, 'mail').output).toEqual({ emailsSent: 0 });
        expect(people).toHaveLength(3);
    });
});
