import { describe, expect, it } from 'vitest';
import { GraphCycleError, GraphError } from '../errors.js';
import type { Graph } from '../types.js';
import { chain, pipeline, source, trigger } from './fixtures.test-helpers.js';
import { collectDriveFileIds, collectUploadIds, dataSourceNodes } from './nodes.js';
import { planGraph } from './plan.js';

const nodes = (...ids: string[]) => ids.map((id) => (id === 'start' ? trigger() : source(id)));

describe('planGraph', () => {
    it('orders a chain', () => {
        const plan = planGraph(pipeline());
        expect(plan.order).toEqual(['start', 'ds', 'adults', 'mail']);
        expect(plan.upstream.get('mail')).toEqual(['adults']);
        expect(plan.downstream.get('start')).toEqual(['ds']);
        expect(plan.upstream.get('start')).toEqual([]);
    });

    it('handles fan-out and fan-in, breaking ties by node order', () => {
        const graph: Graph = {
            nodes: nodes('join', 'b', 'start', 'a', 'c'),
            edges: [
                { source: 'start', target: 'c' },
                { source: 'start', target: 'a' },
                { source: 'start', target: 'b' },
                { source: 'a', target: 'join' },
                { source: 'b', target: 'join' },
                { source: 'c', target: 'join' }
            ]
        };
        const plan = planGraph(graph);
        expect(plan.order).toEqual(['start', 'b', 'a', 'c', 'join']);
        expect(plan.upstream.get('join')).toEqual(['a', 'b', 'c']);
        expect(plan.downstream.get('start')).toEqual(['c', 'a', 'b']);
    });

    it('runs a node only after all of its upstreams, even when listed first', () => {
        const graph: Graph = { nodes: nodes('z', 'y', 'x', 'start'), edges: [...chain('start', 'x', 'y', 'z'), { source: 'start', target: 'z' }] };
        expect(planGraph(graph).order).toEqual(['start', 'x', 'y', 'z']);
    });

    it('ignores duplicate edges', () => {
        const graph: Graph = { nodes: nodes('start', 'a'), edges: [...chain('start', 'a'), ...chain('start', 'a')] };
        expect(planGraph(graph).upstream.get('a')).toEqual(['start']);
    });

    it('throws a typed error naming the cycle', () => {
        const graph: Graph = { nodes: nodes('start', 'a', 'b', 'c'), edges: [...chain('start', 'a', 'b', 'c'), { source: 'c', target: 'a' }] };
        expect(() => planGraph(graph)).toThrow(GraphCycleError);
        try {
            planGraph(graph);
        } catch (error) {
            expect((error as GraphCycleError).cycle).toEqual(['a', 'b', 'c']);
            expect((error as Error).message).toBe("the graph has a cycle: 'a' -> 'b' -> 'c' -> 'a'");
        }
        expect(() => planGraph({ nodes: nodes('a'), edges: chain('a', 'a') })).toThrow(GraphCycleError);
    });

    it('throws GraphError on unknown nodes and duplicate ids', () => {
        expect(() => planGraph({ nodes: nodes('a'), edges: chain('a', 'b') })).toThrow(GraphError);
        expect(() => planGraph({ nodes: nodes('a', 'a'), edges: [] })).toThrow(/duplicate node id 'a'/);
    });

    it('plans a 10,000-node chain written in reverse without recursion', () => {
        const ids = Array.from({ length: 10_000 }, (_, i) => `n${i}`);
        const plan = planGraph({ nodes: nodes(...[...ids].reverse()), edges: chain(...ids) });
        expect(plan.order).toEqual(ids);
    });
});

describe('graph helpers', () => {
    it('lists data sources and their distinct upload and Drive ids', () => {
        const graph: Graph = {
            nodes: [trigger(), source('a', 'u1'), source('b', 'u2'), source('c', 'u1'), { id: 'd', type: 'DATA_SOURCE', data: { driveFileId: 'g1' } }],
            edges: []
        };
        expect(dataSourceNodes(graph).map((n) => n.id)).toEqual(['a', 'b', 'c', 'd']);
        expect(collectUploadIds(graph)).toEqual(['u1', 'u2']);
        expect(collectDriveFileIds(graph)).toEqual(['g1']);
    });
});
