// Graph builders shared by the graph and executor tests.
import type { Edge, Graph, GraphNode } from '../types.js';

export function chain(...ids: string[]): Edge[] {
    return ids.slice(1).map((target, i) => ({ source: ids[i] as string, target }));
}

export const trigger = (id = 'start'): GraphNode => ({ id, type: 'TRIGGER', data: {} });
export const source = (id = 'ds', uploadId = 'up-1'): GraphNode => ({ id, type: 'DATA_SOURCE', data: { uploadId } });
export const filter = (id: string, from: string, expr: string): GraphNode => ({
    id,
    type: 'FILTER',
    data: { source: from, expr }
});
export const output = (id: string, forEach: string, fields: Partial<{ to: string; subject: string; body: string; html: string }> = {}): GraphNode => ({
    id,
    type: 'OUTPUT',
    data: { forEach, to: '{{item.email}}', subject: 'Hi {{item.name}}', body: 'Hello {{item.name}}', ...fields }
});

/** TRIGGER -> DATA_SOURCE -> FILTER -> OUTPUT, the canonical workflow of the specification. */
export function pipeline(): Graph {
    return {
        nodes: [trigger(), source(), filter('adults', '{{ds.rows}}', 'age >= 18'), output('mail', '{{adults.items}}')],
        edges: chain('start', 'ds', 'adults', 'mail')
    };
}
