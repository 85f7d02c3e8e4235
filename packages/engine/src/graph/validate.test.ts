import { describe, expect, it } from 'vitest';
import type { GraphProblem } from '../types.js';
import { chain, filter, output, pipeline, source, trigger } from './fixtures.test-helpers.js';
import { MAX_GRAPH_FILTER_TEXT, MAX_NODE_ID_LENGTH, validateGraph } from './validate.js';

function problems(input: unknown): GraphProblem[] {
    const result = validateGraph(input);
    if (result.ok) throw new Error('expected the graph to be invalid');
    return result.problems;
}

function only(input: unknown): GraphProblem {
    const found = problems(input);
    expect(found, JSON.stringify(found, null, 1)).toHaveLength(1);
    return found[0] as GraphProblem;
}

function withNode(node: unknown, after = 'ds') {
    const graph = pipeline() as { nodes: unknown[]; edges: unknown[] };
    graph.nodes.push(node);
    const id = (node as { id: string }).id;
    graph.edges.push({ source: after, target: id });
    return graph;
}

describe('validateGraph: valid graphs', () => {
    it('accepts the canonical pipeline and returns it', () => {
        const graph = pipeline();
        expect(validateGraph(graph)).toEqual({ ok: true, graph });
    });

    it('accepts a graph without OUTPUT, OUTPUT in the middle, fan-out and fan-in', () => {
        expect(validateGraph({ nodes: [trigger()], edges: [] }).ok).toBe(true);
        expect(validateGraph({ nodes: [trigger(), source()], edges: chain('start', 'ds') }).ok).toBe(true);
        const graph = {
            nodes: [
                trigger(),
                source('a'),
                source('b', 'up-2'),
                output('mailA', '{{a.rows}}'),
                filter('both', '{{b.rows}}', "city == 'Paris'"),
                output('mailBoth', '{{both.items}}', { body: '{{a.rows}} and {{item.name}}' })
            ],
            edges: [
                ...chain('start', 'a', 'mailA', 'both'),
                { source: 'start', target: 'b' },
                { source: 'b', target: 'both' },
                { source: 'both', target: 'mailBoth' }
            ]
        };
        expect(validateGraph(graph)).toEqual({ ok: true, graph });
    });

    it('accepts AI nodes with optional fields and item references in a forEach prompt', () => {
        const graph = withNode({
            id: 'ai',
            type: 'AI',
            data: {
                prompt: 'Tag {{item.name}} using {{ds.rows}}',
                system: 'You tag people.',
                model: 'gpt-4o-mini',
                forEach: '{{ds.rows}}',
                output: [
                    { name: 'tags', type: 'array' },
                    { name: 'summary', type: 'string' }
                ]
            }
        });
        graph.nodes.push(output('mail2', '{{ai.summary}}', { body: '{{ai.tags}}' }));
        graph.edges.push({ source: 'ai', target: 'mail2' });
        expect(validateGraph(graph).ok).toBe(true);
    });

    it('allows extra UI metadata on nodes and edges, and surrounding spaces in array references', () => {
        const graph = pipeline() as unknown as { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] };
        (graph.nodes[0] as Record<string, unknown>).position = { x: 1, y: 2 };
        (graph.edges[0] as Record<string, unknown>).id = 'e1';
        ((graph.nodes[2] as { data: Record<string, unknown> }).data).source = '  {{ ds.rows }} ';
        expect(validateGraph(graph).ok).toBe(true);
    });
});

describe('validateGraph: shape', () => {
    it('rejects non-objects and missing arrays', () => {
        expect(only(null)).toEqual({ nodeId: null, path: '', message: "the graph must be an object with 'nodes' and 'edges' arrays" });
        expect(only([])).toMatchObject({ path: '' });
        expect(problems({}).map((p) => p.path)).toEqual(['nodes', 'edges']);
        expect(problems({ nodes: {}, edges: [] }).map((p) => p.path)).toEqual(['nodes']);
        expect(only({ nodes: [trigger()], edges: null })).toMatchObject({ path: 'edges' });
    });

    it('checks every node: object, id, type, data', () => {
        const found = problems({
            nodes: [trigger(), 'x', { type: 'TRIGGER', data: {} }, { id: 'a', type: 'filter', data: {} }, { id: 'b', type: 'AI' }, { id: 'c', type: 'AI', data: [] }],
            edges: []
        });
        const paths = found.map((p) => p.path);
        expect(paths).toContain('nodes[1]');
        expect(found.find((p) => p.path === 'nodes[2].id')?.message).toMatch(/needs an 'id': a non-empty string, got undefined/);
        expect(found.find((p) => p.path === 'nodes[3].type')).toEqual({
            nodeId: 'a',
            path: 'nodes[3].type',
            message: "unknown node type 'filter' (did you mean 'FILTER'?); the types are TRIGGER, DATA_SOURCE, AI, FILTER, OUTPUT"
        });
        expect(found.find((p) => p.path === 'nodes[4].data')?.message).toMatch(/needs 'data'/);
        expect(found.find((p) => p.path === 'nodes[5].data')?.message).toBe("'data' must be an object");
    });

    it('rejects node ids longer than MAX_NODE_ID_LENGTH, and takes one of exactly that length', () => {
        const long = 'n'.repeat(MAX_NODE_ID_LENGTH + 1);
        expect(problems({ nodes: [trigger(), source(long)], edges: [{ source: 'start', target: long }] })).toContainEqual({
            nodeId: null,
            path: 'nodes[1].id',
            message: `node id is ${MAX_NODE_ID_LENGTH + 1} characters long; at most ${MAX_NODE_ID_LENGTH}`
        });
        const exact = 'n'.repeat(MAX_NODE_ID_LENGTH);
        expect(validateGraph({ nodes: [trigger(), source(exact)], edges: [{ source: 'start', target: exact }] }).ok).toBe(true);
    });

    it('rejects duplicate, empty and unusable ids', () => {
        const graph = pipeline();
        graph.nodes.push({ ...source('ds', 'up-9') });
        expect(problems(graph)).toContainEqual({ nodeId: 'ds', path: 'nodes[4].id', message: "duplicate node id 'ds': nodes[1] already uses it" });
        for (const id of ['a.b', 'x{', ' padded', 'item']) {
            const g = { nodes: [trigger(), source(id)], edges: [{ source: 'start', target: id }] };
            expect(only(g)).toMatchObject({ nodeId: id, path: 'nodes[1].id' });
        }
        expect(only({ nodes: [trigger(), { id: '', type: 'TRIGGER', data: {} }].slice(1), edges: [] }).path).toBe('nodes[0].id');
    });

    it('requires exactly one TRIGGER', () => {
        expect(only({ nodes: [source()], edges: [] })).toEqual({
            nodeId: null,
            path: 'nodes',
            message: 'the graph needs exactly one TRIGGER node, where runs start; it has none'
        });
        const two = problems({ nodes: [trigger('t1'), trigger('t2'), trigger('t3')], edges: [] });
        expect(two.filter((p) => p.message.startsWith('only one TRIGGER'))).toEqual([
            { nodeId: 't2', path: 'nodes[1].type', message: 'only one TRIGGER node is allowed; nodes[0] is already the TRIGGER' },
            { nodeId: 't3', path: 'nodes[2].type', message: 'only one TRIGGER node is allowed; nodes[0] is already the TRIGGER' }
        ]);
    });
});

describe('validateGraph: node data', () => {
    it('requires TRIGGER data to be empty', () => {
        const graph = pipeline();
        (graph.nodes[0] as { data: unknown }).data = { cron: '* * * * *' };
        expect(only(graph)).toEqual({ nodeId: 'start', path: 'nodes[0].data.cron', message: expect.stringContaining("unknown field 'cron' for a TRIGGER node") });
    });

    it('requires exactly one of uploadId / driveFileId on DATA_SOURCE, as non-empty strings', () => {
        const at = (data: unknown) => {
            const graph = pipeline();
            (graph.nodes[1] as { data: unknown }).data = data;
            return problems(graph);
        };
        expect(at({})).toEqual([
            { nodeId: 'ds', path: 'nodes[1].data', message: "a DATA_SOURCE node needs 'uploadId' (an uploaded CSV) or 'driveFileId' (a Google Drive file)" }
        ]);
        expect(at({ uploadId: 'a', driveFileId: 'b' })[0]?.message).toBe("set either 'uploadId' or 'driveFileId', not both");
        expect(at({ uploadId: 5 })[0]).toMatchObject({ path: 'nodes[1].data.uploadId', message: "'uploadId' must be a string, got a number" });
        expect(at({ driveFileId: '  ' })[0]).toMatchObject({ path: 'nodes[1].data.driveFileId', message: "'driveFileId' must not be empty" });
    });

    it("takes 'sheet' only beside a driveFileId", () => {
        const graphWith = (data: unknown) => {
            const graph = pipeline();
            (graph.nodes[1] as { data: unknown }).data = data;
            return graph;
        };
        const at = (data: unknown) => problems(graphWith(data));
        expect(validateGraph(graphWith({ driveFileId: 'f', sheet: 'Contacts' })).ok).toBe(true);
        expect(at({ uploadId: 'u', sheet: 'Contacts' })).toEqual([
            { nodeId: 'ds', path: 'nodes[1].data.sheet', message: "'sheet' names a sheet of a Google Sheet: it needs 'driveFileId'" }
        ]);
    });

    it('reports unknown fields with a suggestion', () => {
        const graph = pipeline();
        (graph.nodes[2] as { data: unknown }).data = { source: '{{ds.rows}}', exp: 'age > 1' };
        expect(problems(graph)).toEqual([
            {
                nodeId: 'adults',
                path: 'nodes[2].data.exp',
                message: "unknown field 'exp' for a FILTER node (did you mean 'expr'?); allowed fields are 'source', 'expr'"
            },
            { nodeId: 'adults', path: 'nodes[2].data.expr', message: "a FILTER node needs 'expr' (a string)" }
        ]);
    });

    it('checks OUTPUT fields', () => {
        const graph = pipeline();
        (graph.nodes[3] as { data: unknown }).data = { forEach: '{{adults.items}}', to: '', subject: 1 };
        expect(problems(graph).map((p) => [p.path, p.message])).toEqual([
            ['nodes[3].data.to', "'to' must not be empty"],
            ['nodes[3].data.subject', "'subject' must be a string, got a number"],
            ['nodes[3].data.body', "an OUTPUT node needs 'body' (a string)"]
        ]);
    });

    it('checks AI fields and the declared outputs', () => {
        const ai = (data: unknown) => problems(withNode({ id: 'ai', type: 'AI', data }));
        expect(ai({ output: [{ name: 'x', type: 'string' }] })[0]).toMatchObject({ path: 'nodes[4].data.prompt' });
        expect(ai({ prompt: 'p' })[0]).toMatchObject({ path: 'nodes[4].data.output' });
        expect(ai({ prompt: 'p', output: [] })[0]?.message).toBe("'output' must be a non-empty array of {name, type} fields");
        expect(ai({ prompt: 'p', output: [{ name: 'x', type: 'string' }], model: 3 })[0]?.path).toBe('nodes[4].data.model');
        const found = ai({
            prompt: 'p',
            output: [{ name: 'ok', type: 'string' }, { name: 'ok', type: 'array' }, { name: '1bad', type: 'string' }, { name: 'x', type: 'number' }, 'nope', { name: 'y', type: 'array', items: 'string' }, { name: '__proto__', type: 'string' }]
        });
        expect(found.map((p) => p.path)).toEqual([
            'nodes[4].data.output[1].name',
            'nodes[4].data.output[2].name',
            'nodes[4].data.output[3].type',
            'nodes[4].data.output[4]',
            'nodes[4].data.output[5].items',
            'nodes[4].data.output[6].name'
        ]);
        expect(found[0]?.message).toBe("output name 'ok' is already used by output[0]");
        expect(found[2]?.message).toBe("output type must be 'string' or 'array', got 'number'");
    });
});

describe('validateGraph: edges and structure', () => {
    it('checks edge endpoints, self-loops, duplicates and edges into the TRIGGER', () => {
        const graph = pipeline() as { nodes: unknown[]; edges: unknown[] };
        graph.edges.push(
            { source: 'ds', target: 'nowhere' },
            { source: 'adult', target: 'mail' },
            { source: 'mail', target: 'mail' },
            { source: 'ds', target: 'adults' },
            { source: 'mail', target: 'start' },
            'x',
            { source: 1, target: 'ds' }
        );
        expect(problems(graph)).toEqual([
            { nodeId: null, path: 'edges[3].target', message: "'target' names node 'nowhere', which does not exist" },
            { nodeId: null, path: 'edges[4].source', message: "'source' names node 'adult', which does not exist (did you mean 'adults'?)" },
            { nodeId: 'mail', path: 'edges[5]', message: "an edge cannot connect node 'mail' to itself" },
            { nodeId: 'ds', path: 'edges[6]', message: "duplicate edge from 'ds' to 'adults': edges[1] already connects them" },
            { nodeId: 'start', path: 'edges[7].target', message: 'the TRIGGER starts the run and cannot have incoming edges' },
            { nodeId: null, path: 'edges[8]', message: 'each edge must be an object {source, target}' },
            { nodeId: null, path: 'edges[9].source', message: "'source' must be the id of a node, got 1" },
            { nodeId: 'start', path: 'nodes[0]', message: "the graph has a cycle: 'start' -> 'ds' -> 'adults' -> 'mail' -> 'start'; remove one of these edges" }
        ]);
    });

    it('names the nodes on each cycle', () => {
        const graph = {
            nodes: [trigger(), source('a'), filter('b', '{{a.rows}}', 'x'), filter('c', '{{b.items}}', 'x'), source('d', 'u'), source('e', 'u')],
            edges: [...chain('start', 'a', 'b', 'c'), { source: 'c', target: 'b' }, ...chain('start', 'd', 'e'), { source: 'e', target: 'd' }]
        };
        expect(problems(graph).map((p) => p.message)).toEqual([
            "the graph has a cycle: 'b' -> 'c' -> 'b'; remove one of these edges",
            "the graph has a cycle: 'd' -> 'e' -> 'd'; remove one of these edges"
        ]);
    });

    it('requires every node to be reachable from the TRIGGER', () => {
        const graph = pipeline();
        graph.edges = graph.edges.filter((e) => e.source !== 'start');
        const found = problems(graph);
        expect(found.map((p) => p.nodeId)).toEqual(['ds', 'adults', 'mail']);
        expect(found[0]).toEqual({
            nodeId: 'ds',
            path: 'nodes[1]',
            message: "node 'ds' is not reachable from the TRIGGER 'start': add an edge to it from the TRIGGER or an upstream node"
        });
    });
});

describe('validateGraph: templates and filters', () => {
    const withField = (index: number, field: string, value: string) => {
        const graph = pipeline();
        ((graph.nodes[index] as { data: Record<string, unknown> }).data)[field] = value;
        return graph;
    };

    it('rejects references to unknown nodes and outputs', () => {
        expect(only(withField(3, 'body', 'x {{dss.rows}}'))).toEqual({
            nodeId: 'mail',
            path: 'nodes[3].data.body',
            message: "{{dss.rows}} refers to node 'dss', which does not exist (did you mean 'ds'?)"
        });
        expect(only(withField(3, 'body', '{{ds.row}}')).message).toBe(
            "{{ds.row}}: node 'ds' (DATA_SOURCE) has no output 'row' (did you mean 'rows'?); its outputs are 'rows', 'count'"
        );
        expect(only(withField(3, 'body', '{{adults.rows}}')).message).toMatch(/node 'adults' \(FILTER\) has no output 'rows'.*'items'/);
        expect(only(withField(3, 'body', '{{start.x}}')).message).toBe("{{start.x}} refers to node 'start', but a TRIGGER node has no outputs");
        expect(only(withField(3, 'body', '{{mail.emailsSent}}')).message).toBe('{{mail.emailsSent}}: a node cannot refer to its own output');
    });

    it('requires referenced nodes to be upstream, transitively', () => {
        const graph = pipeline();
        graph.nodes.push(source('late', 'up-2'));
        graph.edges.push({ source: 'start', target: 'late' });
        ((graph.nodes[3] as { data: Record<string, unknown> }).data).body = 'transitive {{ds.rows}} ok, not {{late.rows}}';
        expect(only(graph)).toEqual({
            nodeId: 'mail',
            path: 'nodes[3].data.body',
            message: "{{late.rows}} refers to node 'late', which is not upstream of 'mail': add a path of edges from 'late' to 'mail'"
        });
        const backwards = withField(2, 'expr', 'x');
        ((backwards.nodes[1] as { data: Record<string, unknown> }).data).uploadId = 'u';
        ((backwards.nodes[2] as { data: Record<string, unknown> }).data).source = '{{ds.rows}}';
        backwards.nodes.push({ id: 'ai', type: 'AI', data: { prompt: '{{mail2.x}}', output: [{ name: 'x', type: 'string' }] } });
        backwards.nodes.push(output('mail2', '{{ai.x}}'));
        backwards.edges.push(...chain('mail', 'ai'), ...chain('ds', 'mail2'));
        const found = problems(backwards).map((p) => p.message);
        expect(found).toContain("{{mail2.x}} refers to node 'mail2', but an OUTPUT node has no outputs");
        expect(found).toContain("'forEach' must refer to an array, but {{ai.x}} is a string");
    });

    it('allows item references only in OUTPUT text fields and forEach AI prompts', () => {
        expect(only(withField(2, 'source', '{{item.rows}}')).message).toMatch(/'source' must be a single reference to an array/);
        const ai = withNode({ id: 'ai', type: 'AI', data: { prompt: 'Hi {{item.name}}', system: '{{item.x}}', output: [{ name: 'x', type: 'string' }] } });
        expect(problems(ai).map((p) => [p.path, p.message])).toEqual([
            ['nodes[4].data.prompt', "{{item.name}} can only be used in OUTPUT 'to', 'subject', 'body' and 'html', and in the prompt of an AI node that has forEach"],
            ['nodes[4].data.system', "{{item.x}} can only be used in OUTPUT 'to', 'subject', 'body' and 'html', and in the prompt of an AI node that has forEach"]
        ]);
    });

    it('requires forEach and source to be one whole reference to an array', () => {
        for (const value of ['ds.rows', '{{ds.rows}} extra', 'rows: {{ds.rows}}', '{{ds.rows}}{{ds.rows}}', '']) {
            const found = problems(withField(2, 'source', value));
            expect(found[0]?.path).toBe('nodes[2].data.source');
        }
        const ai = withNode({ id: 'ai', type: 'AI', data: { prompt: 'p', output: [{ name: 's', type: 'string' }, { name: 't', type: 'array' }] } });
        ai.nodes.push(output('m2', '{{ai.s}}'), output('m3', '{{ai.t}}'));
        ai.edges.push(...chain('ai', 'm2'), ...chain('ai', 'm3'));
        expect(only(ai)).toEqual({ nodeId: 'm2', path: 'nodes[5].data.forEach', message: "'forEach' must refer to an array, but {{ai.s}} is a string" });
    });

    it('knows the count of DATA_SOURCE and FILTER: usable in text, not as a list', () => {
        const counted = withNode(output('staff', '{{ds.rows}}', { body: '{{adults.count}} of {{ds.count}}' }), 'adults');
        expect(validateGraph(counted).ok).toBe(true);
        const asList = withNode(output('m2', '{{ds.count}}'));
        expect(only(asList)).toEqual({ nodeId: 'm2', path: 'nodes[4].data.forEach', message: "'forEach' must refer to an array, but {{ds.count}} is a number" });
    });

    it('treats every output of a forEach AI node as an array', () => {
        const ai = withNode({ id: 'ai', type: 'AI', data: { prompt: '{{item.a}}', forEach: '{{ds.rows}}', output: [{ name: 's', type: 'string' }] } });
        ai.nodes.push(output('m2', '{{ai.s}}'));
        ai.edges.push(...chain('ai', 'm2'));
        expect(validateGraph(ai).ok).toBe(true);
    });

    it('knows a forEach AI node\'s items and every AI node\'s cost outputs, and keeps those names for them', () => {
        const ai = withNode({ id: 'ai', type: 'AI', data: { prompt: '{{item.a}}', forEach: '{{ds.rows}}', output: [{ name: 's', type: 'string' }] } });
        ai.nodes.push(output('m2', '{{ai.items}}', { body: '{{item.s}} ({{ai.aiCalls}} calls, {{ai.aiPromptTokens}} + {{ai.aiCompletionTokens}} tokens)' }));
        ai.edges.push(...chain('ai', 'm2'));
        expect(validateGraph(ai).ok).toBe(true);
        const single = withNode({ id: 'ai', type: 'AI', data: { prompt: 'p', output: [{ name: 'items', type: 'array' }] } });
        single.nodes.push(output('m2', '{{ai.items}}'), output('m3', '{{ai.aiCalls}}'));
        single.edges.push(...chain('ai', 'm2'), ...chain('ai', 'm3'));
        expect(only(single)).toEqual({ nodeId: 'm3', path: 'nodes[6].data.forEach', message: "'forEach' must refer to an array, but {{ai.aiCalls}} is a number" });
        const taken = withNode({
            id: 'ai',
            type: 'AI',
            data: { prompt: 'p', forEach: '{{ds.rows}}', output: [{ name: 'items', type: 'string' }, { name: 'aiCalls', type: 'string' }] }
        });
        expect(problems(taken).map((p) => [p.path, p.message])).toEqual([
            ['nodes[4].data.output[0].name', "output name 'items' is taken by the node's own 'items' output (the elements with their replies): choose another name"],
            ['nodes[4].data.output[1].name', "output name 'aiCalls' is taken by the node's own 'aiCalls' output (what its model calls cost): choose another name"]
        ]);
    });

    it('reports template syntax errors and filter errors at their field', () => {
        expect(only(withField(3, 'subject', 'Hi {{item.name'))).toMatchObject({
            path: 'nodes[3].data.subject',
            message: expect.stringMatching(/^invalid template: unterminated '\{\{'/)
        });
        expect(only(withField(2, 'expr', 'age > 18 && a.b'))).toEqual({
            nodeId: 'adults',
            path: 'nodes[2].data.expr',
            message: "invalid filter expression: member access 'a.b' is not allowed: refer to a field by its bare name (at character 13)"
        });
    });

    it('reports every problem at once', () => {
        const graph = {
            nodes: [
                trigger(),
                source('ds', ''),
                filter('f', '{{ds.rowz}}', 'age >'),
                output('out', '{{f.items}}', { to: '{{ghost.x}}' }),
                { id: 'bad', type: 'NOPE', data: {} }
            ],
            edges: [...chain('start', 'ds', 'f', 'out'), { source: 'out', target: 'missing' }]
        };
        expect(problems(graph).map((p) => p.path)).toEqual([
            'nodes[1].data.uploadId',
            'nodes[4].type',
            'edges[3].target',
            'nodes[4]',
            'nodes[2].data.source',
            'nodes[2].data.expr',
            'nodes[3].data.to'
        ]);
    });
});

// Timings of these cases are measured in bench/engine.mjs; here they must simply complete correctly.
describe('validateGraph: pathological input', () => {
    it('validates a 10,000-node linear chain with far-reaching references, without recursion', () => {
        const n = 10_000;
        const nodes: unknown[] = [trigger(), source('n0')];
        for (let i = 1; i < n; i++) {
            nodes.push(filter(`n${i}`, i % 2 === 1 || i < 3 ? '{{n0.rows}}' : `{{n${i - 2}.items}}`, `age > ${i}`));
        }
        const edges = chain('start', ...Array.from({ length: n }, (_, i) => `n${i}`));
        expect(validateGraph({ nodes, edges }).ok).toBe(true);
        (nodes[5] as { data: { source: string } }).data.source = `{{n${n - 1}.items}}`;
        expect(only({ nodes, edges }).message).toBe(
            `{{n${n - 1}.items}} refers to node 'n${n - 1}', which is not upstream of 'n4': add a path of edges from 'n${n - 1}' to 'n4'`
        );
    });

    it('reports a 10,000-node cycle without overflowing the stack', () => {
        const n = 10_000;
        const ids = Array.from({ length: n }, (_, i) => `n${i}`);
        const nodes = [trigger(), ...ids.map((id) => source(id))];
        const edges = [...chain('start', ...ids), { source: `n${n - 1}`, target: 'n0' }];
        const found = problems({ nodes, edges });
        expect(found).toHaveLength(1);
        expect(found[0]?.message).toMatch(/^the graph has a cycle: 'n0' -> 'n1' -> .* -> 'n9999' -> 'n0'/);
    });

    it('answers a 5 MB graph full of problems', () => {
        const nodes: unknown[] = [trigger()];
        const edges: unknown[] = [];
        for (let i = 0; i < 20_000; i++) {
            nodes.push({ id: `x${i}`, type: 'FILTER', data: { source: `{{y${i}.items}}`, expr: `${'(a > 1) && '.repeat(20)}b`, note: 'x'.repeat(20) } });
            edges.push({ source: 'start', target: `x${i}` }, { source: `x${i}`, target: `gone${i}` });
        }
        expect(JSON.stringify({ nodes, edges }).length).toBeGreaterThan(5_000_000);
        const found = problems({ nodes, edges });
        expect(found.length).toBe(60_000);
    });

    it(`caps the filter text it parses at ${MAX_GRAPH_FILTER_TEXT} characters per graph`, () => {
        const nodes: unknown[] = [trigger(), source()];
        const edges: unknown[] = [...chain('start', 'ds')];
        const expr = (i: number) => `${'a > 1 && '.repeat(500)}b == ${i}`;
        const count = Math.ceil(MAX_GRAPH_FILTER_TEXT / expr(0).length) + 5;
        for (let i = 0; i < count; i++) {
            nodes.push(filter(`f${i}`, '{{ds.rows}}', expr(i)));
            edges.push({ source: 'ds', target: `f${i}` });
        }
        const found = problems({ nodes, edges });
        expect(found.length).toBeGreaterThan(0);
        expect(found.length).toBeLessThanOrEqual(6);
        expect(found[0]?.message).toBe('not checked: the filter expressions of this graph exceed 500,000 characters in total');
        // Repeated expressions are parsed once and do not count twice.
        const same = { nodes: nodes.map((n, i) => (i < 2 ? n : filter(`f${i - 2}`, '{{ds.rows}}', expr(0)))), edges };
        expect(validateGraph(same).ok).toBe(true);
    });
});
