// validateGraph() reports every problem at once, each with the node it concerns and a JSON path,
// so an editor can underline all of them. It runs in linear time (plus a bit-parallel pass for
// template ancestry) and never recurses, so pathological graphs are answered quickly.

import { closest } from '../text.js';
import type { Graph, GraphProblem, NodeType } from '../types.js';
import { NODE_TYPES } from '../types.js';
import { Ancestry } from './ancestry.js';
import { checkNodeData } from './node-data.js';
import { type OutputKind, templateOutputs } from './outputs.js';
import { checkReferences, filterExpressionProblem, type KnownNode } from './references.js';
import { emptyIndexedGraph, findCycles, type IndexedGraph, reachableFrom, topologicalOrder } from './topo.js';

export type GraphValidation = { ok: true; graph: Graph } | { ok: false; problems: GraphProblem[] };

const MAX_SUGGESTIONS = 50;
/** Longest node id: the API's node-output route takes ids up to this length too. */
export const MAX_NODE_ID_LENGTH = 200;
/**
 * jsep parses a few million characters a second, so the filter text of one graph is capped to keep
 * validation well under a second; real workflows use a tiny fraction of this.
 */
export const MAX_GRAPH_FILTER_TEXT = 500_000;
const MAX_SUGGESTION_CANDIDATES = 500;

export interface ValidateOptions {
    /** A schedule firing more often than this is refused (default 1). */
    minScheduleIntervalSeconds?: number;
}

export function validateGraph(input: unknown, options: ValidateOptions = {}): GraphValidation {
    return new Validator(options).run(input);
}

function isRecord(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
    return typeof value === 'string' ? `'${value.length > 60 ? `${value.slice(0, 60)}…` : value}'` : String(value);
}

class Validator {
    private readonly problems: GraphProblem[] = [];
    private readonly byId = new Map<string, number>();
    /** Registered id of each node index (first occurrence of an id only). */
    private readonly idAt: Array<string | undefined> = [];
    private known: Array<KnownNode | undefined> = [];
    private suggestions = 0;
    private filterText = 0;
    private readonly filterProblems = new Map<string, string | null>();

    constructor(private readonly options: ValidateOptions) {}

    run(input: unknown): GraphValidation {
        if (!isRecord(input)) {
            this.report(null, '', "the graph must be an object with 'nodes' and 'edges' arrays");
            return this.result(input);
        }
        const { nodes, edges } = input;
        if (!Array.isArray(nodes)) this.report(null, 'nodes', "'nodes' must be an array of nodes");
        if (!Array.isArray(edges)) this.report(null, 'edges', "'edges' must be an array of {source, target} edges");
        if (!Array.isArray(nodes)) return this.result(input);

        this.known = new Array(nodes.length);
        for (let i = 0; i < nodes.length; i++) this.checkNode(nodes[i], i);
        const triggers = this.checkTriggers(nodes);
        const graph = emptyIndexedGraph(nodes.length);
        if (Array.isArray(edges)) this.checkEdges(edges, graph, triggers.length === 1 ? triggers[0] : undefined);

        const order = topologicalOrder(graph);
        if (order.length < nodes.length) this.reportCycles(graph, order);
        if (triggers.length === 1) this.checkReachability(graph, triggers[0] as number);

        const ancestry = new Ancestry(graph, order);
        const outputs = new Map<number, Map<string, OutputKind>>();
        const context = {
            nodes: this.known,
            byId: this.byId,
            ancestry,
            report: (nodeId: string, path: string, message: string) => this.report(nodeId, path, message),
            suggestNodeId: (id: string) => this.suggestNodeId(id),
            filterProblem: (expr: string) => this.filterProblem(expr),
            outputsOf: (index: number) => {
                let found = outputs.get(index);
                if (found === undefined) {
                    const node = this.known[index];
                    found = node === undefined ? new Map() : templateOutputs(node as never);
                    outputs.set(index, found);
                }
                return found;
            }
        };
        for (const node of this.known) if (node !== undefined) checkReferences(node, context);
        ancestry.resolve();
        return this.result(input);
    }

    private result(input: unknown): GraphValidation {
        return this.problems.length === 0 ? { ok: true, graph: input as Graph } : { ok: false, problems: this.problems };
    }

    private report(nodeId: string | null, path: string, message: string): void {
        this.problems.push({ nodeId, path, message });
    }

    private suggestNodeId(id: string): string | null {
        if (this.suggestions >= MAX_SUGGESTIONS || this.byId.size > MAX_SUGGESTION_CANDIDATES) return null;
        this.suggestions++;
        return closest(id, [...this.byId.keys()]);
    }

    private filterProblem(expr: string): string | null {
        const known = this.filterProblems.get(expr);
        if (known !== undefined) return known;
        this.filterText += expr.length;
        if (this.filterText > MAX_GRAPH_FILTER_TEXT) {
            return `not checked: the filter expressions of this graph exceed ${MAX_GRAPH_FILTER_TEXT.toLocaleString('en-US')} characters in total`;
        }
        const problem = filterExpressionProblem(expr);
        this.filterProblems.set(expr, problem);
        return problem;
    }

    private checkNode(node: unknown, i: number): void {
        const path = `nodes[${i}]`;
        if (!isRecord(node)) {
            this.report(null, path, 'each node must be an object with id, type and data');
            return;
        }
        const id = this.checkId(node.id, i);
        const nodeId = typeof node.id === 'string' ? node.id : null;
        const type = this.checkType(node.type, nodeId, i);
        let data: Record<string, unknown> | undefined;
        if (!Object.hasOwn(node, 'data')) {
            this.report(nodeId, `${path}.data`, `a node needs 'data' (an object; {} for a TRIGGER)`);
        } else if (!isRecord(node.data)) {
            this.report(nodeId, `${path}.data`, "'data' must be an object");
        } else {
            data = node.data;
        }
        if (type !== null && data !== undefined) {
            for (const problem of checkNodeData(type, data, `${path}.data`, { minIntervalSeconds: this.options.minScheduleIntervalSeconds })) {
                this.report(nodeId, problem.path, problem.message);
            }
        }
        if (id !== null && type !== null && data !== undefined) this.known[i] = { index: i, id, type, data };
    }

    /** Returns the id when it is usable for references (and registers it), else null. */
    private checkId(id: unknown, i: number): string | null {
        const path = `nodes[${i}].id`;
        if (typeof id !== 'string' || id === '') {
            this.report(null, path, `each node needs an 'id': a non-empty string, got ${show(id)}`);
            return null;
        }
        if (id.length > MAX_NODE_ID_LENGTH) {
            this.report(null, path, `node id is ${id.length} characters long; at most ${MAX_NODE_ID_LENGTH}`);
            return null;
        }
        const first = this.byId.get(id);
        if (first !== undefined) {
            this.report(id, path, `duplicate node id '${id}': nodes[${first}] already uses it`);
            return null;
        }
        this.byId.set(id, i);
        this.idAt[i] = id;
        if (id === 'item') {
            this.report(id, path, "'item' is reserved for the current element in templates; choose another id");
        } else if (/[.{}]/.test(id) || id.trim() !== id) {
            this.report(
                id,
                path,
                `node id ${show(id)} cannot contain '.', '{' or '}' or begin or end with spaces: templates refer to it as {{id.output}}`
            );
        }
        return id;
    }

    private checkType(type: unknown, nodeId: string | null, i: number): NodeType | null {
        if ((NODE_TYPES as readonly unknown[]).includes(type)) return type as NodeType;
        const guess = typeof type === 'string' ? closest(type, NODE_TYPES) : null;
        this.report(
            nodeId,
            `nodes[${i}].type`,
            `unknown node type ${show(type)}${guess ? ` (did you mean '${guess}'?)` : ''}; the types are ${NODE_TYPES.join(', ')}`
        );
        return null;
    }

    private checkTriggers(nodes: unknown[]): number[] {
        const triggers: number[] = [];
        nodes.forEach((node, i) => {
            if (isRecord(node) && node.type === 'TRIGGER') triggers.push(i);
        });
        if (triggers.length === 0) {
            this.report(null, 'nodes', 'the graph needs exactly one TRIGGER node, where runs start; it has none');
        }
        const first = triggers[0] as number;
        for (const i of triggers.slice(1)) {
            const id = (nodes[i] as Record<string, unknown>).id;
            this.report(
                typeof id === 'string' ? id : null,
                `nodes[${i}].type`,
                `only one TRIGGER node is allowed; nodes[${first}] is already the TRIGGER`
            );
        }
        return triggers;
    }

    private checkEdges(edges: unknown[], graph: IndexedGraph, trigger: number | undefined): void {
        const seen = new Map<number, number>();
        edges.forEach((edge, j) => {
            const path = `edges[${j}]`;
            if (!isRecord(edge)) {
                this.report(null, path, 'each edge must be an object {source, target}');
                return;
            }
            const source = this.endpoint(edge.source, `${path}.source`);
            const target = this.endpoint(edge.target, `${path}.target`);
            if (source === null || target === null) return;
            const sourceId = edge.source as string;
            if (source === target) {
                this.report(sourceId, path, `an edge cannot connect node '${sourceId}' to itself`);
                return;
            }
            const key = source * graph.size + target;
            const previous = seen.get(key);
            if (previous !== undefined) {
                this.report(sourceId, path, `duplicate edge from '${sourceId}' to '${String(edge.target)}': edges[${previous}] already connects them`);
                return;
            }
            seen.set(key, j);
            if (target === trigger) {
                this.report(String(edge.target), `${path}.target`, 'the TRIGGER starts the run and cannot have incoming edges');
            }
            graph.successors[source]?.push(target);
            graph.predecessors[target]?.push(source);
        });
    }

    private endpoint(value: unknown, path: string): number | null {
        const field = path.slice(path.lastIndexOf('.') + 1);
        if (typeof value !== 'string' || value === '') {
            this.report(null, path, `'${field}' must be the id of a node, got ${show(value)}`);
            return null;
        }
        const index = this.byId.get(value);
        if (index === undefined) {
            const guess = this.suggestNodeId(value);
            this.report(null, path, `'${field}' names node '${value}', which does not exist${guess ? ` (did you mean '${guess}'?)` : ''}`);
            return null;
        }
        return index;
    }

    private nodeId(index: number): string {
        return this.idAt[index] ?? `nodes[${index}]`;
    }

    private reportCycles(graph: IndexedGraph, order: number[]): void {
        for (const cycle of findCycles(graph, order)) {
            const ids = cycle.map((i) => this.nodeId(i));
            const first = cycle[0] as number;
            this.report(
                ids[0] as string,
                `nodes[${first}]`,
                `the graph has a cycle: ${[...ids, ids[0]].map((id) => `'${id}'`).join(' -> ')}; remove one of these edges`
            );
        }
    }

    private checkReachability(graph: IndexedGraph, trigger: number): void {
        const reached = reachableFrom(graph, trigger);
        const triggerId = this.nodeId(trigger);
        this.idAt.forEach((id, i) => {
            if (id !== undefined && !reached[i]) {
                this.report(
                    id,
                    `nodes[${i}]`,
                    `node '${id}' is not reachable from the TRIGGER '${triggerId}': add an edge to it from the TRIGGER or an upstream node`
                );
            }
        });
    }
}
