// What each node type makes available to templates. Shared by validation (is `{{ai.tags}}` a real
// output, is it an array?) and the executor.

import type { AiData, GraphNode } from '../types.js';

export type OutputKind = 'array' | 'string';

/** Template outputs of a node, by name. TRIGGER and OUTPUT have none. */
export function templateOutputs(node: GraphNode): Map<string, OutputKind> {
    switch (node.type) {
        case 'DATA_SOURCE':
            return new Map([['rows', 'array']]);
        case 'FILTER':
            return new Map([['items', 'array']]);
        case 'AI': {
            const data = node.data as AiData;
            const outputs = new Map<string, OutputKind>();
            if (!Array.isArray(data.output)) return outputs;
            // With forEach, every declared output becomes an array of per-element values.
            const perElement = typeof data.forEach === 'string';
            for (const field of data.output) {
                if (field !== null && typeof field === 'object' && typeof field.name === 'string') {
                    outputs.set(field.name, perElement ? 'array' : field.type === 'array' ? 'array' : 'string');
                }
            }
            return outputs;
        }
        default:
            return new Map();
    }
}
