import { describe, expect, it } from 'vitest';
import { executeRun } from './executor.js';
import { chain, filter, output, pipeline, source, trigger } from './graph/fixtures.test-helpers.js';
import { fakePorts, people, recorder } from './nodes/fake-ports.test-helpers.js';
import type { Graph, NodeState } from './types.js';

function state(outcome: { nodes: NodeState[] }, id: string): NodeState {
    const found = outcome.nodes.find((n) => n.nodeId === id);
    if (found === undefined) throw new Error(`no node ${id}`);
    return found;
}

describe('executeRun: a successful run', () => {
    it('runs the pipeline, sends one e-mail per matching row and counts the result', async () => {
        const ports = fakePorts({ rows: { 'up-1': people } });
        const rec = recorder();
        const outcome = await executeRun(pipeline(), { ports, hooks: rec.hooks, now: rec.now });

        expect(outcome.status).toBe('SUCCESS');
        expect(outcome.result).toEqual({ totalRows: 3, filteredOut: 1, emailsSent: 2 });
        expect(outcome.error).toBeUndefined();
        expect(ports.sent).toEqual([
            { message: { to: 'ann@example.com', subject: 'Hi Ann', body: 'Hello Ann' }, key: { nodeId: 'mail', index: 0, elements: 2 } },
            { message: { to: 'cy@example.com', subject: 'Hi Cy', body: 'Hello Cy' }, key: { nodeId: 'mail', index: 1, elements: 2 } }
        ]);
        expect(outcome.nodes.map((n) => [n.nodeId, n.type, n.status, n.error])).toEqual([
            ['start', 'TRIGGER', 'SUCCESS', null],
            ['ds', 'DATA_SOURCE', 'SUCCESS', null],
            ['adults', 'FILTER', 'SUCCESS', null],
            ['mail', 'OUTPUT', 'SUCCESS', null]
        ]);
        expect(state(outcome, 'start').output).toEqual({});
        expect(state(outcome, 'ds').output).toEqual({ rows: people, count: 3 });
        expect(state(outcome, 'adults').output).toEqual({ items: [people[0], people[2]], count: 2 });
        expect(state(outcome, 'mail').output).toEqual({ emailsSent: 2 });
        // Rows are shared, not copied.
        expect((state(outcome, 'adults').output as { items: unknown[] }).items[0]).toBe(people[0]);
    });

    it('reports RUNNING then the terminal state of every node, in order, with timestamps', async () => {
        const rec = recorder();
        const outcome = await executeRun(pipeline(), { ports: fakePorts({ rows: { 'up-1': people } }), hooks: rec.hooks, now: rec.now });
        expect(rec.transitions()).toEqual([
            'start:RUNNING',
            'start:SUCCESS',
            'ds:RUNNING',
            'ds:SUCCESS',
            'adults:RUNNING',
            'adults:SUCCESS',
            'mail:RUNNING',
            'mail:SUCCESS'
        ]);
        const [running, done] = rec.changes;
        expect(running).toEqual({ nodeId: 'start', type: 'TRIGGER', status: 'RUNNING', error: null, startedAt: rec.at(0), completedAt: null, output: null });
        expect(done).toEqual({ nodeId: 'start', type: 'TRIGGER', status: 'SUCCESS', error: null, startedAt: rec.at(0), completedAt: rec.at(1), output: {} });
        expect(state(outcome, 'mail')).toMatchObject({ startedAt: rec.at(6), completedAt: rec.at(7) });
        // Hooks receive snapshots: later transitions do not rewrite earlier ones.
        expect(rec.changes[6]?.status).toBe('RUNNING');
    });

    it('defaults now() to the current time and needs no hooks or signal', async () => {
        const before = Date.now();
        const outcome = await executeRun({ nodes: [trigger()], edges: [] }, { ports: fakePorts() });
        const start = state(outcome, 'start');
        expect(start.startedAt).toBeInstanceOf(Date);
        expect(start.completedAt?.getTime()).toBeGreaterThanOrEqual(before);
    });

    it('executes fan-out and fan-in in topological order', async () => {
        const graph: Graph = {
            nodes: [
                output('mail', '{{both.items}}', { body: '{{item.name}} of {{a.rows}}' }),
                filter('both', '{{b.rows}}', 'age > 20'),
                trigger(),
                source('b', 'up-b'),
                source('a', 'up-a')
            ],
            edges: [
                { source: 'start', target: 'a' },
                { source: 'start', target: 'b' },
                { source: 'a', target: 'both' },
                { source: 'b', target: 'both' },
                { source: 'both', target: 'mail' },
                { source: 'a', target: 'mail' }
            ]
        };
        const rec = recorder();
        const ports = fakePorts({ rows: { 'up-a': [{ x: 1 }], 'up-b': people } });
        const outcome = await executeRun(graph, { ports, hooks: rec.hooks, now: rec.now });
        expect(outcome.status).toBe('SUCCESS');
        expect(rec.transitions().filter((t) => t.endsWith('RUNNING'))).toEqual([
            'start:RUNNING',
            'b:RUNNING',
            'a:RUNNING',
            'both:RUNNING',
            'mail:RUNNING'
        ]);
        expect(outcome.nodes.map((n) => n.nodeId)).toEqual(['mail', 'both', 'start', 'b', 'a']);
        expect(outcome.result).toEqual({ totalRows: 4, filteredOut: 1, emailsSent: 2 });
        expect(ports.sent[0]?.message.body).toBe('Ann of [{"x":1}]');
    });

    it('succeeds when the data source has no rows', async () => {
        const outcome = await executeRun(pipeline(), { ports: fakePorts({ rows: { 'up-1': [] } }) });
        expect(outcome.status).toBe('SUCCESS');
        expect(state(outcome, 'adults').output).toEqual({ items: [], count: 0 });
        expect(state(outcome, 'mail').output).toEqual({ emailsSent: 0 });
    });
});

describe('executeRun: failures', () => {
    it('fails a node on a port error, skips its downstream and still runs other branches', async () => {
        const graph: Graph = {
            nodes: [trigger(), source('broken', 'missing'), output('m1', '{{broken.rows}}'), source('ok', 'up-1'), output('m2', '{{ok.rows}}')],
            edges: [...chain('start', 'broken', 'm1'), ...chain('start', 'ok', 'm2')]
        };
        const rec = recorder();
        const ports = fakePorts({ rows: { 'up-1': people } });
        const outcome = await executeRun(graph, { ports, hooks: rec.hooks, now: rec.now });
        expect(outcome.status).toBe('FAILED');
        expect(state(outcome, 'broken')).toMatchObject({ status: 'FAILED', error: "upload 'missing' not found", output: null });
        expect(state(outcome, 'broken').completedAt).toBeInstanceOf(Date);
        expect(state(outcome, 'm1')).toEqual({ nodeId: 'm1', type: 'OUTPUT', status: 'SKIPPED', error: null, startedAt: null, completedAt: null, output: null });
        expect(state(outcome, 'm2').status).toBe('SUCCESS');
        expect(outcome.result).toEqual({ totalRows: 3, filteredOut: 0, emailsSent: 3 });
        expect(rec.transitions()).toEqual([
            'start:RUNNING',
            'start:SUCCESS',
            'broken:RUNNING',
            'broken:FAILED',
            'm1:SKIPPED',
            'ok:RUNNING',
            'ok:SUCCESS',
            'm2:RUNNING',
            'm2:SUCCESS'
        ]);
    });

    it('skips transitively and never lets a non-Error throw escape', async () => {
        for (const [thrown, message] of [
            ['plain string', 'plain string'],
            [42, '42'],
            [null, 'null'],
            [{ code: 'E42' }, '{"code":"E42"}'],
            [new Error(''), 'Error']
        ] as Array<[unknown, string]>) {
            const outcome = await executeRun(pipeline(), {
                ports: fakePorts({
                    rows: {
                        'up-1': () => {
                            throw thrown;
                        }
                    }
                })
            });
            expect(outcome.status).toBe('FAILED');
            expect(state(outcome, 'ds').error).toBe(message);
            expect(outcome.nodes.map((n) => n.status)).toEqual(['SUCCESS', 'FAILED', 'SKIPPED', 'SKIPPED']);
        }
    });

    it('fails a DATA_SOURCE whose port returns something other than rows', async () => {
        const outcome = await executeRun(pipeline(), { ports: fakePorts({ rows: { 'up-1': () => 'rows' } }) });
        expect(state(outcome, 'ds').error).toBe('the data source did not return a list of rows');
    });

    it('does not start an invalid graph and says why', async () => {
        const graph = pipeline();
        (graph.nodes[2]?.data as { expr: string }).expr = 'age >';
        const rec = recorder();
        const ports = fakePorts({ rows: { 'up-1': people } });
        const outcome = await executeRun(graph, { ports, hooks: rec.hooks, now: rec.now });
        expect(outcome.status).toBe('FAILED');
        expect(outcome.error).toMatch(/^the workflow graph is invalid: nodes\[2\]\.data\.expr: invalid filter expression/);
        expect(state(outcome, 'adults')).toMatchObject({ status: 'FAILED', error: expect.stringMatching(/^invalid node: nodes\[2\]\.data\.expr/) });
        expect(outcome.nodes.filter((n) => n.status === 'SKIPPED').map((n) => n.nodeId)).toEqual(['start', 'ds', 'mail']);
        expect(ports.loads).toEqual([]);
        expect(rec.transitions()).toEqual(['start:SKIPPED', 'ds:SKIPPED', 'adults:FAILED', 'mail:SKIPPED']);
        const garbage = await executeRun({ nodes: 'x' } as unknown as Graph, { ports });
        expect(garbage).toMatchObject({ status: 'FAILED', nodes: [], error: expect.stringMatching(/'nodes' must be an array/) });
    });

    it('rejects when a hook throws, because the caller can no longer record the run', async () => {
        const ports = fakePorts({ rows: { 'up-1': people } });
        const hooks = {
            onNodeChange(s: NodeState) {
                if (s.nodeId === 'adults' && s.status === 'SUCCESS') throw new Error('lease lost');
            }
        };
        await expect(executeRun(pipeline(), { ports, hooks })).rejects.toThrow('lease lost');
        expect(ports.sent).toEqual([]);
    });
});

describe('executeRun: counts', () => {
    // Staff are told how many, without the list: {{ds.count}} and {{adults.count}} validate and render.
    const counted = (): Graph => {
        const graph = pipeline();
        graph.nodes.push(output('staff', '{{ds.rows}}', { to: 'staff@example.com', subject: 'Invited', body: '{{adults.count}} of {{ds.count}} invited' }));
        graph.edges.push({ source: 'adults', target: 'staff' });
        return graph;
    };

    it('DATA_SOURCE and FILTER output count, and a template reads it', async () => {
        const graph = counted();
        graph.nodes[4] = output('staff', '{{ds.rows}}', { to: 'staff@example.com', subject: '{{ds.count}} rows', body: '{{adults.count}} of {{ds.count}} invited' });
        const ports = fakePorts({ rows: { 'up-1': people } });
        const outcome = await executeRun(graph, { ports });
        expect(outcome.status, outcome.error).toBe('SUCCESS');
        expect(ports.sent.filter((s) => s.key.nodeId === 'staff').map((s) => [s.message.subject, s.message.body])).toEqual([
            ['3 rows', '2 of 3 invited'],
            ['3 rows', '2 of 3 invited'],
            ['3 rows', '2 of 3 invited']
        ]);
    });

    it('a resumed run whose kept outputs were recorded without count still renders it', async () => {
        const graph = counted();
        const first = await executeRun(graph, {
            ports: fakePorts({
                rows: { 'up-1': people },
                beforeSend: () => {
                    throw new Error('crash');
                }
            })
        });
        const previous = first.nodes.map((n) => {
            const { count: _count, ...rest } = (n.output ?? {}) as Record<string, unknown>;
            return n.status === 'SUCCESS' ? { ...n, output: rest } : n;
        });
        const ports = fakePorts({ rows: { 'up-1': [] } });
        const outcome = await executeRun(graph, { ports, resume: previous });
        expect(ports.loads).toEqual([]);
        expect(outcome.status, outcome.error).toBe('SUCCESS');
        expect(ports.sent.filter((s) => s.key.nodeId === 'staff').map((s) => s.message.body)).toEqual(['2 of 3 invited', '2 of 3 invited', '2 of 3 invited']);
        expect(state(outcome, 'adults').output).toMatchObject({ count: 2 });
    });
});

describe('executeRun: resume', () => {
    async function firstAttempt() {
        const ports = fakePorts({
            rows: { 'up-1': people },
            beforeSend: (message) => {
                if (message.to.startsWith('cy')) throw new Error('crash');
            }
        });
        return executeRun(pipeline(), { ports });
    }

    it('keeps completed nodes, reuses their outputs and re-runs the rest', async () => {
        const previous = await firstAttempt();
        expect(previous.nodes.map((n) => n.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'FAILED']);
        const rec = recorder();
        const ports = fakePorts({ rows: { 'up-1': [] } });
        const outcome = await executeRun(pipeline(), { ports, hooks: rec.hooks, now: rec.now, resume: previous.nodes });
        expect(ports.loads).toEqual([]);
        expect(rec.transitions()).toEqual(['mail:RUNNING', 'mail:SUCCESS']);
        expect(ports.sent.map((s) => s.key)).toEqual([
            { nodeId: 'mail', index: 0, elements: 2 },
            { nodeId: 'mail', index: 1, elements: 2 }
        ]);
        expect(outcome.status).toBe('SUCCESS');
        expect(state(outcome, 'ds')).toEqual(state(previous, 'ds'));
        expect(outcome.result).toEqual({ totalRows: 3, filteredOut: 1, emailsSent: 2 });
    });

    it('ignores previous states that are not SUCCESS or do not match the node type', async () => {
        const previous = await firstAttempt();
        const tampered = previous.nodes.map((n) => (n.nodeId === 'ds' ? { ...n, type: 'AI' as const } : n));
        const ports = fakePorts({ rows: { 'up-1': people } });
        await executeRun(pipeline(), { ports, resume: tampered });
        expect(ports.loads).toHaveLength(1);
    });

    it('resolves references lazily: a kept node downstream of a re-run failure reads nothing stale', async () => {
        const graph = pipeline();
        (graph.nodes[3]?.data as { body: string }).body = '{{ds.rows}}';
        const previous: NodeState[] = (await executeRun(graph, { ports: fakePorts({ rows: { 'up-1': people } }) })).nodes.map((n) =>
            n.nodeId === 'ds' ? { ...n, status: 'FAILED', output: null } : n.nodeId === 'mail' ? { ...n, status: 'RUNNING' } : n
        );
        const outcome = await executeRun(graph, { ports: fakePorts(), resume: previous });
        expect(state(outcome, 'ds').error).toBe("upload 'up-1' not found");
        expect(state(outcome, 'adults').status).toBe('SUCCESS');
        expect(state(outcome, 'mail')).toMatchObject({
            status: 'FAILED',
            error: "element #0: {{ds.rows}} refers to node 'ds', which did not complete successfully (its status is FAILED)",
            output: { emailsSent: 0 }
        });
    });

    it('fails a node whose source does not resolve to an array', async () => {
        const previous = await firstAttempt();
        const broken = previous.nodes.map((n) => (n.nodeId === 'ds' ? { ...n, output: { rows: 'oops' } } : n.nodeId === 'adults' ? { ...n, status: 'PENDING' as const } : n));
        const outcome = await executeRun(pipeline(), { ports: fakePorts(), resume: broken });
        expect(state(outcome, 'adults').error).toBe("'source' {{ds.rows}} must resolve to an array, got a string");
    });
});
