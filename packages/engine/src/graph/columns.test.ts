import { describe, expect, it } from 'vitest';
import type { Graph, GraphNode } from '../types.js';
import { checkColumns, type ColumnsOf, fieldNames } from './columns.js';
import { chain, filter, output, source, trigger } from './fixtures.test-helpers.js';
import { parseFilter } from '../filter/parse.js';
import { validateGraph } from './validate.js';

const uploads: Record<string, string[]> = {
    'up-1': ['name', 'email', 'age', 'subscribed'],
    'up-2': ['First Name', 'mail']
};

const columnsOf: ColumnsOf = (node) => {
    const uploadId = node.data.uploadId;
    const columns = uploadId === undefined ? undefined : uploads[uploadId];
    return columns === undefined ? null : { columns, label: `upload ${uploadId === 'up-1' ? 'contacts.csv' : 'people.csv'}` };
};

const ai = (id: string, forEach: string | undefined, prompt: string, names = ['tone']): GraphNode => ({
    id,
    type: 'AI',
    data: { prompt, output: names.map((name) => ({ name, type: 'string' as const })), ...(forEach ? { forEach } : {}) }
});

/** The graph is valid as far as validateGraph() can tell: only the columns are wrong. */
function valid(graph: Graph): Graph {
    expect(validateGraph(graph)).toMatchObject({ ok: true });
    return graph;
}

describe('checkColumns', () => {
    it('accepts a graph whose every name is a column that reaches it', () => {
        const graph = valid({
            nodes: [
                trigger(),
                source(),
                filter('subs', '{{ds.rows}}', 'subscribed == true && age >= 18'),
                output('mail', '{{subs.items}}', { subject: 'Hi {{ item.name }}, {{item.age}} {{item}}', body: '{{subs.count}} of {{ds.count}}' })
            ],
            edges: chain('start', 'ds', 'subs', 'mail')
        });
        expect(checkColumns(graph, columnsOf)).toEqual([]);
    });

    it("names the node, the field and the nearest column of the issue's typos", () => {
        const graph = valid({
            nodes: [
                trigger(),
                source(),
                filter('subs', '{{ds.rows}}', 'subscribd == true'),
                output('mail', '{{subs.items}}', { subject: 'Hi {{item.nmae}}', body: 'Hi {{item.nmae}}, {{item.agee}}' })
            ],
            edges: chain('start', 'ds', 'subs', 'mail')
        });
        expect(checkColumns(graph, columnsOf)).toEqual([
            {
                nodeId: 'subs',
                path: 'nodes[2].data.expr',
                field: 'subscribd',
                suggestion: 'subscribed',
                message: "'subscribd' in the filter of node 'subs': no such column in upload contacts.csv; did you mean 'subscribed'?"
            },
            {
                nodeId: 'mail',
                path: 'nodes[3].data.subject',
                field: 'nmae',
                suggestion: 'name',
                message: "{{item.nmae}} in 'subject' of node 'mail': no such column in upload contacts.csv; did you mean 'name'?"
            },
            expect.objectContaining({ path: 'nodes[3].data.body', field: 'nmae' }),
            expect.objectContaining({ path: 'nodes[3].data.body', field: 'agee', suggestion: 'age' })
        ]);
    });

    it('lists the columns when none is close, and checks the recipient too', () => {
        const graph = valid({
            nodes: [trigger(), source(), output('mail', '{{ds.rows}}', { to: '{{item.recipient}}' })],
            edges: chain('start', 'ds', 'mail')
        });
        expect(checkColumns(graph, columnsOf)).toEqual([
            expect.objectContaining({
                path: 'nodes[2].data.to',
                suggestion: null,
                message: "{{item.recipient}} in 'to' of node 'mail': no such column in upload contacts.csv; its columns are 'name', 'email', 'age', 'subscribed'"
            })
        ]);
    });

    it('matches names exactly: another case is a mistake, with the right spelling suggested', () => {
        const graph = valid({
            nodes: [trigger(), source('p', 'up-2'), output('mail', '{{p.rows}}', { to: '{{item.mail}}', subject: '{{item.First Name}} {{item.first name}}', body: '' })],
            edges: chain('start', 'p', 'mail')
        });
        expect(checkColumns(graph, columnsOf)).toEqual([
            expect.objectContaining({ field: 'first name', suggestion: 'First Name', message: expect.stringContaining('upload people.csv') })
        ]);
    });

    it('follows FILTER chains and AI forEach items, which add the declared outputs', () => {
        const graph = valid({
            nodes: [
                trigger(),
                source(),
                filter('adults', '{{ds.rows}}', 'age >= 18'),
                ai('tag', '{{adults.items}}', 'Tone for {{item.name}} ({{item.nme}})', ['tone', 'topic']),
                filter('warm', '{{tag.items}}', "tone == 'warm' && name != null && tpoic != null"),
                output('mail', '{{warm.items}}', { subject: '{{item.topic}} for {{item.name}}', body: '{{item.tnoe}}' })
            ],
            edges: chain('start', 'ds', 'adults', 'tag', 'warm', 'mail')
        });
        expect(checkColumns(graph, columnsOf)).toEqual([
            expect.objectContaining({
                nodeId: 'tag',
                path: 'nodes[3].data.prompt',
                field: 'nme',
                message: "{{item.nme}} in 'prompt' of node 'tag': no such column in upload contacts.csv; did you mean 'name'?"
            }),
            expect.objectContaining({
                nodeId: 'warm',
                field: 'tpoic',
                suggestion: 'topic',
                message: "'tpoic' in the filter of node 'warm': no such field in upload contacts.csv or the outputs of AI node 'tag'; did you mean 'topic'?"
            }),
            expect.objectContaining({ nodeId: 'mail', path: 'nodes[5].data.body', field: 'tnoe', suggestion: 'tone' })
        ]);
    });

    it('checks nothing whose columns are unknown: a Drive file, an unknown upload, an AI array output', () => {
        const drive: GraphNode = { id: 'drive', type: 'DATA_SOURCE', data: { driveFileId: 'f1' } };
        const graph = valid({
            nodes: [
                trigger(),
                drive,
                source('gone', 'up-unknown'),
                { id: 'list', type: 'AI', data: { prompt: 'Name some', output: [{ name: 'names', type: 'array' }] } },
                filter('f', '{{drive.rows}}', 'anything == 1'),
                output('a', '{{f.items}}', { subject: '{{item.whatever}}' }),
                output('b', '{{gone.rows}}', { subject: '{{item.whatever}}' }),
                output('c', '{{list.names}}', { to: '{{item}}', subject: '{{item.value}}' }),
                ai('perName', '{{list.names}}', 'About {{item.value}}'),
                output('d', '{{perName.items}}', { subject: '{{item.tone}} {{item.value}}' })
            ],
            edges: [
                ...chain('start', 'drive', 'f', 'a'),
                ...chain('start', 'gone', 'b'),
                ...chain('start', 'list', 'c'),
                ...chain('list', 'perName', 'd')
            ]
        });
        expect(checkColumns(graph, columnsOf)).toEqual([]);
    });

    it('tolerates graphs that fail validation, leaving their problems to validateGraph()', () => {
        expect(checkColumns(null, columnsOf)).toEqual([]);
        expect(checkColumns({ nodes: [1, { id: 'x' }, { id: 'y', type: 'OUTPUT', data: { forEach: '{{y.rows}}', subject: '{{' } }] }, columnsOf)).toEqual([]);
        const cyclic = {
            nodes: [filter('a', '{{b.items}}', 'x > 1'), filter('b', '{{a.items}}', 'y > 1')],
            edges: []
        };
        expect(checkColumns(cyclic, columnsOf)).toEqual([]);
        const badFilter = { nodes: [source(), filter('f', '{{ds.rows}}', 'age >')], edges: [] };
        expect(checkColumns(badFilter, columnsOf)).toEqual([]);
    });

    it('suggests no name that shares no letter with the one written', () => {
        const short: ColumnsOf = () => ({ columns: ['n', 'label'], label: 'upload data.csv' });
        const graph = { nodes: [trigger(), source(), filter('f', '{{ds.rows}}', 'a == 1 && lable != null')], edges: chain('start', 'ds', 'f') };
        expect(checkColumns(graph, short)).toEqual([
            expect.objectContaining({ field: 'a', suggestion: null, message: "'a' in the filter of node 'f': no such column in upload data.csv; its columns are 'n', 'label'" }),
            expect.objectContaining({ field: 'lable', suggestion: 'label' })
        ]);
    });

    it('summarises a long list of columns', () => {
        const wide: ColumnsOf = () => ({ columns: Array.from({ length: 25 }, (_, i) => `column_${i}`), label: 'upload wide.csv' });
        const graph = { nodes: [trigger(), source(), output('mail', '{{ds.rows}}', { to: '{{item.x}}', subject: '', body: '' })], edges: chain('start', 'ds', 'mail') };
        const [problem] = checkColumns(graph, wide);
        expect(problem?.message).toMatch(/its columns are 'column_0', .*'column_19' and 5 more$/);
    });
});

describe('fieldNames', () => {
    it('lists each name a filter reads once, in order', () => {
        expect(fieldNames(parseFilter("!(a > 1 || b == 'x') && a != null && c"))).toEqual(['a', 'b', 'c']);
        expect(fieldNames(parseFilter('true'))).toEqual([]);
    });
});
