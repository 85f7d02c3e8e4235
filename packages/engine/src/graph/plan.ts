import { GraphCycleError, GraphError } from '../errors.js';
import type { Graph } from '../types.js';
import { emptyIndexedGraph, findCycles, topologicalOrder } from './topo.js';

export interface GraphPlan {
    /** Execution order: topological, ties broken by the nodes' order in `graph.nodes`. */
    order: string[];
    /** Direct predecessors of each node, in edge order. */
    upstream: Map<string, string[]>;
    /** Direct successors of each node, in edge order. */
    downstream: Map<string, string[]>;
}

/** Throws GraphCycleError on a cycle and GraphError on an edge naming an unknown node. */
export function planGraph(graph: Graph): GraphPlan {
    const ids = graph.nodes.map((node) => node.id);
    const indexOf = new Map<string, number>();
    ids.forEach((id, i) => {
        if (indexOf.has(id)) throw new GraphError(`duplicate node id '${id}'`);
        indexOf.set(id, i);
    });
    const indexed = emptyIndexedGraph(ids.length);
    const upstream = new Map<string, string[]>(ids.map((id) => [id, []]));
    const downstream = new Map<string, string[]>(ids.map((id) => [id, []]));
    const seen = new Set<string>();
    for (const edge of graph.edges) {
        const s = indexOf.get(edge.source);
        const t = indexOf.get(edge.target);
        if (s === undefined || t === undefined) {
            const missing = s === undefined ? edge.source : edge.target;
            throw new GraphError(`an edge names node '${missing}', which is not in the graph`);
        }
        const key = `${s}>${t}`;
        if (seen.has(key)) continue;
        seen.add(key);
        indexed.successors[s]?.push(t);
        indexed.predecessors[t]?.push(s);
        downstream.get(edge.source)?.push(edge.target);
        upstream.get(edge.target)?.push(edge.source);
    }
    const order = topologicalOrder(indexed);
    if (order.length < ids.length) {
        const [cycle = []] = findCycles(indexed, order);
        throw new GraphCycleError(cycle.map((i) => ids[i] as string));
    }
    return { order: order.map((i) => ids[i] as string), upstream, downstream };
}
