// Small queries the server needs about a validated graph (e.g. which uploads a workflow uses, to
// check they exist and belong to the account).

import type { DataSourceData, Graph, GraphNode } from '../types.js';

export function dataSourceNodes(graph: Graph): GraphNode<'DATA_SOURCE'>[] {
    return graph.nodes.filter((node): node is GraphNode<'DATA_SOURCE'> => node.type === 'DATA_SOURCE');
}

/** Distinct upload ids named by DATA_SOURCE nodes, in node order. */
export function collectUploadIds(graph: Graph): string[] {
    return distinct(dataSourceNodes(graph).map((node) => (node.data as DataSourceData).uploadId));
}

/** Distinct Google Drive file ids named by DATA_SOURCE nodes, in node order. */
export function collectDriveFileIds(graph: Graph): string[] {
    return distinct(dataSourceNodes(graph).map((node) => (node.data as DataSourceData).driveFileId));
}

function distinct(values: Array<string | undefined>): string[] {
    return [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))];
}
