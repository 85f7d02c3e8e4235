import type { DataSourceData } from '../types.js';
import { type NodeHandler, NodeFailure } from './context.js';

export const runDataSource: NodeHandler = async (node, ctx) => {
    const rows = await ctx.ports.loadRows(node.data as DataSourceData, ctx.port);
    if (!Array.isArray(rows)) throw new NodeFailure('the data source did not return a list of rows');
    ctx.result.totalRows += rows.length;
    return { rows, count: rows.length };
};
