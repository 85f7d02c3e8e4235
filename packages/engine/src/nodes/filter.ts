import { FilterError } from '../errors.js';
import { compileFilter, type FilterPredicate } from '../filter/index.js';
import type { FilterData } from '../types.js';
import { type NodeHandler, NodeFailure, resolveArray } from './context.js';

export const runFilter: NodeHandler = async (node, ctx) => {
    const data = node.data as FilterData;
    const source = resolveArray(data.source, 'source', ctx.scope);
    let matches: FilterPredicate;
    try {
        matches = compileFilter(data.expr);
    } catch (error) {
        if (error instanceof FilterError) throw new NodeFailure(`invalid filter expression: ${error.message}`);
        throw error;
    }
    // Elements are shared with the source output, not copied: outputs are never mutated.
    const items: unknown[] = [];
    for (let i = 0; i < source.length; i++) {
        const element = source[i];
        if (matches(element)) items.push(element);
    }
    ctx.result.filteredOut += source.length - items.length;
    return { items };
};
