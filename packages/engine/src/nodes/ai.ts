import { buildOutputSchema, validateAiReply } from '../ai-schema.js';
import { compileTemplate } from '../templates/index.js';
import type { AiData, AiOutputField, AiRequest } from '../types.js';
import { itemScope, type NodeContext, type NodeHandler, NodeFailure, RunCancelled, resolveArray } from './context.js';

const MISMATCH = 'language-model reply did not match the declared output schema';

export const runAi: NodeHandler = async (node, ctx) => {
    const data = node.data as AiData;
    const schema = buildOutputSchema(data.output);
    const prompt = compileTemplate(data.prompt);
    const system = data.system === undefined ? undefined : compileTemplate(data.system).renderText(ctx.scope);
    const request = (text: string, index: number | null): AiRequest => ({
        nodeId: node.id,
        index,
        ...(data.model === undefined ? {} : { model: data.model }),
        ...(system === undefined ? {} : { system }),
        prompt: text,
        output: data.output,
        schema
    });

    if (data.forEach === undefined) {
        const reply = await complete(ctx, request(prompt.renderText(ctx.scope), null), 'run cancelled');
        const check = validateAiReply(data.output, reply);
        if (!check.ok) throw new NodeFailure(`${MISMATCH}: ${check.message}`);
        return check.value;
    }

    const elements = resolveArray(data.forEach, 'forEach', ctx.scope);
    const columns = data.output.map(() => [] as unknown[]);
    const scope = itemScope(ctx.scope);
    for (let i = 0; i < elements.length; i++) {
        const progress = `run cancelled after ${i} of ${elements.length} language-model calls`;
        if (ctx.signal.aborted) throw new RunCancelled(progress);
        scope.item = elements[i];
        const reply = await complete(ctx, request(prompt.renderText(scope), i), progress);
        const check = validateAiReply(data.output, reply);
        if (!check.ok) throw new NodeFailure(`${MISMATCH}: element #${i}: ${check.message}`);
        for (let k = 0; k < data.output.length; k++) {
            columns[k]?.push(check.value[(data.output[k] as AiOutputField).name]);
        }
    }
    const output: Record<string, unknown> = {};
    data.output.forEach((field, k) => {
        output[field.name] = columns[k];
    });
    return output;
};

async function complete(ctx: NodeContext, request: AiRequest, cancelled: string): Promise<unknown> {
    try {
        return await ctx.ports.complete(request, ctx.port);
    } catch (error) {
        if (ctx.signal.aborted) throw new RunCancelled(cancelled);
        throw error;
    }
}
