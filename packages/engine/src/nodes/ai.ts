import { buildOutputSchema, validateAiReply } from '../ai-schema.js';
import { errorMessage } from '../errors.js';
import { compileTemplate } from '../templates/index.js';
import type { AiAnswer, AiData, AiOutputField, AiRequest, NodeOutput, PortContext, RunResult } from '../types.js';
import { itemScope, type NodeContext, type NodeHandler, NodeFailure, RunCancelled, resolveArray } from './context.js';

const MISMATCH = 'language-model reply did not match the declared output schema';

/** What a node's model calls cost; also the node's `aiCalls`, `aiPromptTokens`, `aiCompletionTokens` outputs. */
export interface Tally {
    aiCalls: number;
    aiPromptTokens: number;
    aiCompletionTokens: number;
}

/**
 * One structured model call, or with `forEach` one per element: up to `ports.aiConcurrency` at once,
 * each reply kept at its element's index whatever order they arrive in. A per-row node outputs
 * `items` (each element with the declared fields added) and, per declared field, the array of
 * per-element values. Both forms output what the calls cost.
 */
export const runAi: NodeHandler = async (node, ctx) => {
    const data = node.data as AiData;
    const tally: Tally = { aiCalls: 0, aiPromptTokens: 0, aiCompletionTokens: 0 };
    addTally(ctx.result, tally);
    try {
        const output = data.forEach === undefined ? await single(data, node.id, ctx, tally) : await perElement(data, node.id, ctx, tally);
        return { ...output, ...tally };
    } catch (error) {
        // What was paid for before the node stopped still shows on it.
        if (error instanceof RunCancelled) throw new RunCancelled(error.message, { ...tally });
        if (error instanceof NodeFailure) throw new NodeFailure(error.message, { ...tally });
        throw new NodeFailure(errorMessage(error), { ...tally });
    }
};

const requestFor = (data: AiData, nodeId: string, ctx: NodeContext) => {
    const schema = buildOutputSchema(data.output);
    const system = data.system === undefined ? undefined : compileTemplate(data.system).renderText(ctx.scope);
    return (text: string, index: number | null, elements?: number): AiRequest => ({
        nodeId,
        index,
        ...(data.model === undefined ? {} : { model: data.model }),
        ...(system === undefined ? {} : { system }),
        prompt: text,
        output: data.output,
        schema,
        ...(elements === undefined ? {} : { elements })
    });
};

async function single(data: AiData, nodeId: string, ctx: NodeContext, tally: Tally): Promise<NodeOutput> {
    const request = requestFor(data, nodeId, ctx)(compileTemplate(data.prompt).renderText(ctx.scope), null);
    const reply = await ask(ctx, ctx.port, request, '', tally);
    return reply === NOT_ASKED ? { ...notAsked(data), aiNotAsked: 1 } : reply;
}

/** What `ask` returns for an element the port deferred (see AiAnswer.deferred). */
const NOT_ASKED = Symbol('not asked');

/** The declared fields of an element the model was not asked about: null, as a missing field reads. */
const notAsked = (data: AiData): Record<string, unknown> => Object.fromEntries(data.output.map((field) => [field.name, null]));

async function perElement(data: AiData, nodeId: string, ctx: NodeContext, tally: Tally): Promise<NodeOutput> {
    const elements = resolveArray(data.forEach as string, 'forEach', ctx.scope);
    const prompt = compileTemplate(data.prompt);
    const request = requestFor(data, nodeId, ctx);
    const total = elements.length;
    const replies: Record<string, unknown>[] = new Array(total);
    let deferred = 0;
    // Aborted by a cancel, or by the first element that fails: calls under way are given up either way.
    const stop = new AbortController();
    const onCancel = () => stop.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onCancel);
    if (ctx.signal.aborted) onCancel();
    const port: PortContext = { nodeId, signal: stop.signal };
    let next = 0;
    let done = 0;
    let failure: { error: unknown } | null = null;

    const lane = async (): Promise<void> => {
        const scope = itemScope(ctx.scope);
        while (!stop.signal.aborted && next < total) {
            const i = next++;
            try {
                scope.item = elements[i];
                const reply = await ask(ctx, port, request(prompt.renderText(scope), i, total), `element #${i}: `, tally);
                if (reply === NOT_ASKED) {
                    deferred++;
                    replies[i] = notAsked(data);
                } else {
                    replies[i] = reply;
                }
                done++;
            } catch (error) {
                if (!stop.signal.aborted) {
                    failure = { error };
                    stop.abort();
                }
            }
        }
    };
    const lanes = Math.max(1, Math.min(total, Math.floor(ctx.ports.aiConcurrency ?? 1)));
    try {
        await Promise.all(Array.from({ length: lanes }, lane));
    } finally {
        ctx.signal.removeEventListener('abort', onCancel);
    }
    if (ctx.signal.aborted) throw new RunCancelled(`run cancelled after ${done} of ${total} language-model calls`);
    if (failure !== null) throw (failure as { error: unknown }).error;

    const output: NodeOutput = { items: elements.map((element, i) => withReply(element, replies[i] as Record<string, unknown>)) };
    for (const field of data.output) {
        output[field.name] = replies.map((reply) => reply[(field as AiOutputField).name]);
    }
    if (deferred > 0) output.aiNotAsked = deferred;
    return output;
}

/** The element with the reply's fields added; an element that is not an object becomes `{value}` first. */
function withReply(element: unknown, reply: Record<string, unknown>): Record<string, unknown> {
    const base = typeof element === 'object' && element !== null && !Array.isArray(element) ? element : { value: element };
    const item: Record<string, unknown> = { ...base };
    for (const [name, value] of Object.entries(reply)) {
        Object.defineProperty(item, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return item;
}

/**
 * Asks for one reply and validates it; a reply that does not match (or is not JSON) is asked again
 * once, with what was wrong added to the conversation, because models usually fix it when told.
 */
async function ask(ctx: NodeContext, port: PortContext, request: AiRequest, where: string, tally: Tally): Promise<Record<string, unknown> | typeof NOT_ASKED> {
    const spent = { calls: 0, promptTokens: 0, completionTokens: 0 };
    const first = await call(ctx, port, request, tally, spent);
    if (first.deferred) return NOT_ASKED;
    let problem = problemWith(request, first);
    if (typeof problem !== 'string') {
        if (!first.recorded) await ctx.ports.recordReply?.(request, problem.value, spent);
        return problem.value;
    }
    const again = await call(ctx, port, { ...request, correction: { reply: first.text, problem } }, tally, spent);
    const second = problemWith(request, again);
    if (typeof second !== 'string') {
        await ctx.ports.recordReply?.(request, second.value, spent);
        return second.value;
    }
    problem = second;
    throw new NodeFailure(`${MISMATCH}: ${where}${problem}`);
}

function problemWith(request: AiRequest, answer: AiAnswer): string | { value: Record<string, unknown> } {
    if (answer.notJson !== undefined) return answer.notJson;
    const check = validateAiReply(request.output, answer.reply);
    return check.ok ? { value: check.value } : check.message;
}

async function call(
    ctx: NodeContext,
    port: PortContext,
    request: AiRequest,
    tally: Tally,
    spent: { calls: number; promptTokens: number; completionTokens: number }
): Promise<AiAnswer> {
    let answer: AiAnswer;
    try {
        answer = await ctx.ports.complete(request, port);
    } catch (error) {
        if (ctx.signal.aborted) throw new RunCancelled('run cancelled');
        throw error;
    }
    // Declined by the port: no call was made, so nothing is counted.
    if (answer.deferred) return answer;
    const calls = answer.calls ?? 1;
    const promptTokens = answer.usage?.promptTokens ?? 0;
    const completionTokens = answer.usage?.completionTokens ?? 0;
    spent.calls += calls;
    spent.promptTokens += promptTokens;
    spent.completionTokens += completionTokens;
    tally.aiCalls += calls;
    tally.aiPromptTokens += promptTokens;
    tally.aiCompletionTokens += completionTokens;
    addTally(ctx.result, { aiCalls: calls, aiPromptTokens: promptTokens, aiCompletionTokens: completionTokens });
    return answer;
}

/** Adds a node's model costs to the run's totals (which have them once an AI node ran). */
export function addTally(result: RunResult, add: Tally): void {
    result.aiCalls = (result.aiCalls ?? 0) + add.aiCalls;
    result.aiPromptTokens = (result.aiPromptTokens ?? 0) + add.aiPromptTokens;
    result.aiCompletionTokens = (result.aiCompletionTokens ?? 0) + add.aiCompletionTokens;
}
