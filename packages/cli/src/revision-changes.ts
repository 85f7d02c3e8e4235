// What changed from one revision of a workflow to the next, in one line for `workflows history`
// and for apply's 412: "FILTER audience: expr changed; OUTPUT send: subject changed".
import type { Graph, GraphNode } from '@flowctl/sdk';

import { differences } from './apply.js';

export interface Snapshot {
    name: string;
    graph: Graph;
}

const label = (node: GraphNode) => `${node.type} ${node.id}`;

const edgeKey = (edge: { source: string; target: string }) => `${edge.source} → ${edge.target}`;

/** The keys of `data` that differ, top level only (`subject`, `expr`), sorted. */
const changedKeys = (before: GraphNode, after: GraphNode): string[] => {
    const paths = differences(before.data, after.data);
    return [...new Set(paths.map((path) => (path === '(whole value)' ? 'data' : (/^[^.[]+/.exec(path)?.[0] ?? path))))].sort();
};

/** One line; `before` null for the first revision. */
export const describeChange = (before: Snapshot | null, after: Snapshot): string => {
    if (before === null) {
        return 'created';
    }

    const parts: string[] = [];
    if (before.name !== after.name) {
        parts.push(`renamed from '${before.name}'`);
    }

    const old = new Map(before.graph.nodes.map((node) => [node.id, node]));
    const now = new Map(after.graph.nodes.map((node) => [node.id, node]));
    for (const node of after.graph.nodes) {
        const was = old.get(node.id);
        if (!was) {
            parts.push(`${label(node)} added`);
        } else if (was.type !== node.type) {
            parts.push(`${node.id}: ${was.type} became ${node.type}`);
        } else {
            const keys = changedKeys(was, node);
            if (keys.length > 0) {
                parts.push(`${label(node)}: ${keys.join(', ')} changed`);
            }
        }
    }

    for (const node of before.graph.nodes) {
        if (!now.has(node.id)) {
            parts.push(`${label(node)} removed`);
        }
    }

    const oldEdges = new Set(before.graph.edges.map(edgeKey));
    const newEdges = new Set(after.graph.edges.map(edgeKey));
    const added = [...newEdges].filter((edge) => !oldEdges.has(edge));
    const removed = [...oldEdges].filter((edge) => !newEdges.has(edge));
    if (added.length > 0) {
        parts.push(`edge${added.length > 1 ? 's' : ''} ${added.join(', ')} added`);
    }

    if (removed.length > 0) {
        parts.push(`edge${removed.length > 1 ? 's' : ''} ${removed.join(', ')} removed`);
    }

    if (parts.length === 0 && differences(before.graph, after.graph).length > 0) {
        parts.push('nodes reordered');
    }

    return parts.length > 0 ? parts.join('; ') : 'no change';
};
