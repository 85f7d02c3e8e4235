// Runs a graph over ports. Nodes run one at a time in plan order, which keeps runs deterministic and
// hook calls strictly ordered. A node runs only when all its direct upstreams succeeded; otherwise
// it is SKIPPED. Whatever a port throws fails that node only; executeRun itself rejects only when a
// hook throws, because a hook failure means the caller can no longer record the run (e.g. it lost
// its lease) and carrying on could send e-mails nobody records.

import { errorMessage } from './errors.js';
import { planGraph } from './graph/plan.js';
import { validateGraph } from './graph/validate.js';
import { type NodeContext, type NodeHandler, NodeFailure, RunCancelled, resolveArray } from './nodes/context.js';
import { addTally, runAi } from './nodes/ai.js';
import { runDataSource } from './nodes/data-source.js';
import { runTrigger } from './nodes/trigger.js';
import { runFilter } from './nodes/filter.js';
import { runOutput } from './nodes/output.js';
import type { TemplateScope } from './templates/index.js';
import type {
    ExecuteOptions,
    FilterData,
    Graph,
    GraphNode,
    NodeOutput,
    NodeState,
    NodeStatus,
    NodeType,
    RunOutcome,
    RunResult
} from './types.js';

const HANDLERS: Record<NodeType, NodeHandler> = {
    TRIGGER: runTrigger,
    DATA_SOURCE: runDataSource,
    AI: runAi,
    FILTER: runFilter,
    OUTPUT: runOutput
};

export async function executeRun(graph: Graph, options: ExecuteOptions): Promise<RunOutcome> {
    return new Execution(graph, options).run();
}

/**
 * A DATA_SOURCE or FILTER output recorded before `count` existed (a run resumed across an upgrade)
 * gains it, so `{{src.count}}` downstream renders the same as in a fresh run.
 */
function withCount(node: GraphNode, output: NodeOutput): NodeOutput {
    const list = node.type === 'DATA_SOURCE' ? output.rows : node.type === 'FILTER' ? output.items : undefined;
    return Array.isArray(list) && typeof output.count !== 'number' ? { ...output, count: list.length } : output;
}

class Execution {
    private readonly states = new Map<string, NodeState>();
    private readonly outputs = new Map<string, NodeOutput>();
    private readonly result: RunResult = { totalRows: 0, filteredOut: 0, emailsSent: 0 };
    private readonly signal: AbortSignal;
    private readonly now: () => Date;
    private readonly scope: TemplateScope;

    constructor(
        private readonly graph: Graph,
        private readonly options: ExecuteOptions
    ) {
        this.signal = options.signal ?? new AbortController().signal;
        this.now = options.now ?? (() => new Date());
        this.scope = { outputs: this.outputs, statusOf: (id) => this.states.get(id)?.status };
    }

    async run(): Promise<RunOutcome> {
        const validation = validateGraph(this.graph);
        if (!validation.ok) return this.rejectInvalid(validation.problems);
        const plan = planGraph(this.graph);
        const byId = new Map(this.graph.nodes.map((node) => [node.id, node]));
        const kept = this.initialStates();
        let cancelled = false;
        for (const id of plan.order) {
            const node = byId.get(id) as GraphNode;
            if (kept.has(id)) {
                this.keep(node);
                continue;
            }
            if (cancelled || this.signal.aborted) {
                cancelled = true;
                await this.transition(id, { status: 'SKIPPED' });
                continue;
            }
            const upstream = plan.upstream.get(id) ?? [];
            if (!upstream.every((u) => this.states.get(u)?.status === 'SUCCESS')) {
                await this.transition(id, { status: 'SKIPPED' });
                continue;
            }
            cancelled = await this.execute(node);
        }
        const nodes = this.graph.nodes.map((node) => this.states.get(node.id) as NodeState);
        const failed = nodes.some((state) => state.status === 'FAILED');
        return {
            status: cancelled ? 'CANCELLED' : failed ? 'FAILED' : 'SUCCESS',
            nodes: nodes.map((state) => ({ ...state })),
            result: { ...this.result }
        };
    }

    /** Returns true when the run was cancelled while the node was working. */
    private async execute(node: GraphNode): Promise<boolean> {
        await this.transition(node.id, { status: 'RUNNING', startedAt: this.now() });
        const ctx: NodeContext = {
            ports: this.options.ports,
            port: { nodeId: node.id, signal: this.signal },
            signal: this.signal,
            scope: this.scope,
            result: this.result
        };
        let output: NodeOutput;
        try {
            output = await HANDLERS[node.type](node, ctx);
        } catch (error) {
            const cancelled = error instanceof RunCancelled || this.signal.aborted;
            const message = error instanceof RunCancelled ? error.message : cancelled ? 'run cancelled' : errorMessage(error);
            const partial = error instanceof NodeFailure || error instanceof RunCancelled ? error.output : null;
            await this.transition(node.id, { status: 'FAILED', error: message, completedAt: this.now(), output: partial });
            return cancelled;
        }
        this.outputs.set(node.id, output);
        await this.transition(node.id, { status: 'SUCCESS', completedAt: this.now(), output });
        return false;
    }

    /** Fresh PENDING states, except nodes a resumed run already completed. Returns the kept ids. */
    private initialStates(): Set<string> {
        const previous = new Map((this.options.resume ?? []).map((state) => [state.nodeId, state]));
        const kept = new Set<string>();
        for (const node of this.graph.nodes) {
            const before = previous.get(node.id);
            if (
                before !== undefined &&
                before.status === 'SUCCESS' &&
                before.type === node.type &&
                typeof before.output === 'object' &&
                before.output !== null
            ) {
                this.states.set(node.id, { ...before });
                kept.add(node.id);
            } else {
                this.states.set(node.id, pending(node));
            }
        }
        return kept;
    }

    /** A node completed by an earlier attempt: reuse its output and count it in the run totals. */
    private keep(node: GraphNode): void {
        const state = this.states.get(node.id) as NodeState;
        const output = withCount(node, state.output as NodeOutput);
        if (output !== state.output) this.states.set(node.id, { ...state, output });
        this.outputs.set(node.id, output);
        if (node.type === 'DATA_SOURCE' && Array.isArray(output.rows)) this.result.totalRows += output.rows.length;
        if (node.type === 'AI') {
            const count = (name: string) => (typeof output[name] === 'number' ? (output[name] as number) : 0);
            addTally(this.result, { aiCalls: count('aiCalls'), aiPromptTokens: count('aiPromptTokens'), aiCompletionTokens: count('aiCompletionTokens') });
        }
        if (node.type === 'OUTPUT' && typeof output.emailsSent === 'number') this.result.emailsSent += output.emailsSent;
        if (node.type === 'OUTPUT' && typeof output.suppressed === 'number') this.result.suppressed = (this.result.suppressed ?? 0) + output.suppressed;
        if (node.type === 'OUTPUT' && typeof output.unknownOutcome === 'number') this.result.unknownOutcome = (this.result.unknownOutcome ?? 0) + output.unknownOutcome;
        if (node.type === 'FILTER' && Array.isArray(output.items)) {
            try {
                const source = resolveArray((node.data as FilterData).source, 'source', this.scope);
                this.result.filteredOut += Math.max(0, source.length - output.items.length);
            } catch {
                // The source is no longer resolvable (its node was re-run and failed): nothing to count.
            }
        }
    }

    private async transition(nodeId: string, change: Partial<NodeState> & { status: NodeStatus }): Promise<void> {
        const before = this.states.get(nodeId) as NodeState;
        const state: NodeState =
            change.status === 'RUNNING' || change.status === 'SKIPPED'
                ? { ...before, error: null, startedAt: null, completedAt: null, output: null, ...change }
                : { ...before, ...change };
        this.states.set(nodeId, state);
        await this.options.hooks?.onNodeChange?.({ ...state });
    }

    /** A graph that does not validate never starts: the nodes named by problems fail, others are skipped. */
    private async rejectInvalid(problems: { nodeId: string | null; message: string; path: string }[]): Promise<RunOutcome> {
        const nodes = (Array.isArray(this.graph?.nodes) ? this.graph.nodes : []).filter(
            (node) => typeof node === 'object' && node !== null && typeof node.id === 'string'
        );
        const summary = `the workflow graph is invalid: ${problems
            .slice(0, 5)
            .map((p) => `${p.path}: ${p.message}`)
            .join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more problems` : ''}`;
        const states: NodeState[] = [];
        for (const node of nodes) {
            const own = problems.filter((p) => p.nodeId === node.id).map((p) => `${p.path}: ${p.message}`);
            const state: NodeState =
                own.length > 0
                    ? { ...pending(node), status: 'FAILED', error: `invalid node: ${own.join('; ')}`, completedAt: this.now() }
                    : { ...pending(node), status: 'SKIPPED' };
            states.push(state);
            await this.options.hooks?.onNodeChange?.({ ...state });
        }
        return { status: 'FAILED', nodes: states, result: { ...this.result }, error: summary };
    }
}

function pending(node: GraphNode): NodeState {
    return {
        nodeId: node.id,
        type: node.type,
        status: 'PENDING',
        error: null,
        startedAt: null,
        completedAt: null,
        output: null
    };
}
