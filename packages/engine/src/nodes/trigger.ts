import type { TriggerData } from '../types.js';
import { type NodeHandler, NodeFailure } from './context.js';

/** A TRIGGER with `webhook: true` outputs the rows its run was started with (none when started otherwise). */
export const runTrigger: NodeHandler = async (node, ctx) => {
    if ((node.data as TriggerData).webhook !== true) return {};
    const rows = ctx.ports.triggerRows ? await ctx.ports.triggerRows(ctx.port) : [];
    if (!Array.isArray(rows)) throw new NodeFailure('the trigger did not return a list of rows');
    ctx.result.totalRows += rows.length;
    return { rows, count: rows.length };
};
