// Generated from the engine's node rules (nodeDataSchemas) by `npm run generate -w @flowctl/sdk`. Do not
// edit: a test fails when this file differs from what the engine checks.

export type TriggerNodeData =
    | { schedule?: never; webhook?: never }
    | { schedule: { cron: string; timezone?: string }; webhook?: boolean }
    | { schedule?: { cron: string; timezone?: string }; webhook: boolean };

export type DataSourceNodeData =
    | { uploadId: string; driveFileId?: never; sheet?: never }
    | { driveFileId: string; sheet?: string; uploadId?: never };

export interface AiNodeData {
    prompt: string;
    output: { name: string; type: 'string' | 'array' }[];
    model?: string;
    system?: string;
    forEach?: string;
}

export interface FilterNodeData {
    source: string;
    expr: string;
}

export interface OutputNodeData {
    forEach: string;
    to: string;
    subject: string;
    body: string;
    html?: string;
}

/** A node as sent to the server: its `type` decides its `data`. */
export type GraphNodeInput =
    | { id: string; type: 'TRIGGER'; data: TriggerNodeData }
    | { id: string; type: 'DATA_SOURCE'; data: DataSourceNodeData }
    | { id: string; type: 'AI'; data: AiNodeData }
    | { id: string; type: 'FILTER'; data: FilterNodeData }
    | { id: string; type: 'OUTPUT'; data: OutputNodeData }
    /** Not a node: keeps TypeScript naming a typo in the node's own data type (see scripts/node-types.mjs). */
    | { id: string; type: never; data: Record<never, never> };

/** A graph as sent to the server (create, update, preview). */
export interface GraphInput {
    nodes: GraphNodeInput[];
    edges: { source: string; target: string }[];
}
