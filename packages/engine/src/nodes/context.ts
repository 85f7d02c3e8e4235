// What a node handler gets, and the two ways it ends other than returning its output.

import { compileTemplate, type TemplateScope } from '../templates/index.js';
import { describeType } from '../text.js';
import type { GraphNode, NodeOutput, PortContext, Ports, RunResult } from '../types.js';

export interface NodeContext {
    readonly ports: Ports;
    readonly port: PortContext;
    readonly signal: AbortSignal;
    /** Outputs of completed nodes; no `item`. */
    readonly scope: TemplateScope;
    /** Run totals; handlers add to them as work is done, so partial work is counted too. */
    readonly result: RunResult;
}

export type NodeHandler = (node: GraphNode, ctx: NodeContext) => Promise<NodeOutput>;

/** The node failed with a message for the user; `output` is what it produced before failing. */
export class NodeFailure extends Error {
    constructor(
        message: string,
        readonly output: NodeOutput | null = null
    ) {
        super(message);
        this.name = 'NodeFailure';
    }
}

/** The run was cancelled while this node was working; the message says how far it got. */
export class RunCancelled extends Error {
    constructor(
        message = 'run cancelled',
        readonly output: NodeOutput | null = null
    ) {
        super(message);
        this.name = 'RunCancelled';
    }
}

/** A scope whose `item` is replaced per element, allocated once per loop rather than per element. */
export function itemScope(scope: TemplateScope): { -readonly [K in keyof TemplateScope]: TemplateScope[K] } {
    return { outputs: scope.outputs, statusOf: scope.statusOf, item: undefined };
}

/** Resolves a `forEach` / `source` field, which must be one reference to an array. */
export function resolveArray(text: string, field: string, scope: TemplateScope): unknown[] {
    const template = compileTemplate(text.trim());
    if (template.whole === null) {
        throw new NodeFailure(`'${field}' must be a single reference to an array, such as {{source.rows}}`);
    }
    const value = template.render(scope);
    if (!Array.isArray(value)) {
        throw new NodeFailure(`'${field}' ${template.whole.text} must resolve to an array, got ${describeType(value)}`);
    }
    return value;
}
