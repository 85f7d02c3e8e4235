import { FilterError } from '../errors.js';
import { compileFilter, type FilterPredicate } from '../filter/index.js';
import { Slicer } from '../slices.js';
import type { FilterData } from '../types.js';
import { type NodeHandler, NodeFailure, RunCancelled, resolveArray } from './context.js';

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
    // A million rows take a while: the loop gives way every few milliseconds, and stops there on cancel.
    const items: unknown[] = [];
    const slicer = new Slicer();
    for (let i = 0; i < source.length; i++) {
        if (slicer.due) {
            await slicer.pause();
            if (ctx.signal.aborted) throw new RunCancelled(`run cancelled after filtering ${i} of ${source.length} elements`);
        }
        const element = source[i];
        if (matches(element)) items.push(element);
    }
    ctx.result.filteredOut += source.length - items.length;
    return { items, count: items.length };
};
