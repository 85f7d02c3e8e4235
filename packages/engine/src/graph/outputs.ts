// What each node type makes available to templates. Shared by validation (is `{{ai.tags}}` a real
// output, is it an array?) and the executor.

import type { AiData, GraphNode } from '../types.js';
import { AI_COST_OUTPUTS } from './node-data.js';

export type OutputKind = 'array' | 'string' | 'number';

/**
 * Template outputs of a node, by name. OUTPUT has none; a TRIGGER only with `webhook: true`. DATA_SOURCE and FILTER also give
 * `count` (how many rows / items), so a message can say how many without listing them.
 */
export function templateOutputs(node: GraphNode): Map<string, OutputKind> {
    switch (node.type) {
        case 'TRIGGER':
            // Rows posted to the workflow's hook (none for a run started otherwise).
            return (node.data as { webhook?: unknown }).webhook === true
                ? new Map<string, OutputKind>([
                      ['rows', 'array'],
                      ['count', 'number']
                  ])
                : new Map();
        case 'DATA_SOURCE':
            return new Map<string, OutputKind>([
                ['rows', 'array'],
                ['count', 'number']
            ]);
        case 'FILTER':
            return new Map<string, OutputKind>([
                ['items', 'array'],
                ['count', 'number']
            ]);
        case 'AI': {
            const data = node.data as AiData;
            const outputs = new Map<string, OutputKind>();
            if (!Array.isArray(data.output)) return outputs;
            // With forEach, every declared output becomes an array of per-element values, and `items`
            // holds the elements with their replies.
            const perElement = typeof data.forEach === 'string';
            if (perElement) outputs.set('items', 'array');
            for (const field of data.output) {
                if (field !== null && typeof field === 'object' && typeof field.name === 'string') {
                    outputs.set(field.name, perElement ? 'array' : field.type === 'array' ? 'array' : 'string');
                }
            }
            for (const name of AI_COST_OUTPUTS) outputs.set(name, 'number');
            return outputs;
        }
        default:
            return new Map();
    }
}
