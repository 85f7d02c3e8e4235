import type { AiRequest, Ports } from '@flowctl/engine';

import { type AiEndpoint, complete } from '../ai/client.js';
import { AiLimiter } from '../ai/limiter.js';
import { aiRequestHash } from '../ai/request-hash.js';
import { type PreviewReplyRecord, previewReplies } from '../store/ai-preview-replies.js';
import { type AiReplyRecord, recordedAiReplies, writeAiReplies } from '../store/ai-replies.js';
import { AiReplyLog } from './ai-reply-log.js';
import type { PortsEnv, PortsRun } from './ports.js';

/** A run's model calls, as the engine's ports; settle() waits until their replies are recorded. */
export type AiPorts = Required<Pick<Ports, 'complete' | 'recordReply' | 'aiConcurrency'>> & { settle(): Promise<void> };

/**
 * The model side of a run's ports (see createPorts): each AI node gets its own limiter, and a reply
 * an earlier attempt at this run, or a preview of this workflow, paid for is reused instead of asked again.
 */
export const createAiPorts = (env: PortsEnv, run: PortsRun): AiPorts => {
    let settings: Promise<AiEndpoint> | null = null;
    const replies = new AiReplyLog(
        (batch) => writeAiReplies(env.db, run.id, batch),
        (err) => env.log.warn({ err, runId: run.id }, 'language-model replies could not be recorded: a resumed run would ask for them again')
    );
    /** Per AI node: its limiter, the replies an earlier attempt recorded, how many elements have theirs. */
    const limiters = new Map<string, AiLimiter>();
    const recorded = new Map<string, Promise<Map<number, AiReplyRecord>>>();
    const done = new Map<string, number>();
    const hashes = new WeakMap<AiRequest, string>();

    const hashOf = aiRequestHash;
    /** Replies previews of this workflow paid for, read once per run (a preview keeps at most 20 per node). */
    let previewed: Promise<Map<string, PreviewReplyRecord>> | null = null;

    const recordedFor = (nodeId: string): Promise<Map<number, AiReplyRecord>> => {
        let found = recorded.get(nodeId);
        if (!found) {
            // A re-deriving retry holds, as its own, the replies recorded for the run it retries.
            found = run.resumed || run.rederived ? recordedAiReplies(env.db, run.id, nodeId) : Promise.resolve(new Map());
            recorded.set(nodeId, found);
        }

        return found;
    };

    const replied = (request: AiRequest): void => {
        const count = (done.get(request.nodeId) ?? 0) + 1;
        done.set(request.nodeId, count);
        run.onAiProgress?.(request.nodeId, { aiDone: count, aiTotal: request.elements ?? 1 });
    };

    return {
        async complete(request, ctx) {
            settings ??= env.deps.aiSettings(run.accountId);
            const endpoint = await settings;
            const index = request.index ?? -1;
            if (!request.correction) {
                const hash = hashOf(endpoint, request);
                hashes.set(request, hash);
                // Paid for by an earlier attempt at this run: the same request gets the same reply, free.
                const earlier = (await recordedFor(request.nodeId)).get(index);
                if (earlier && earlier.request_hash === hash) {
                    replied(request);
                    run.onProgress();
                    return {
                        reply: earlier.reply,
                        text: JSON.stringify(earlier.reply),
                        recorded: true,
                        calls: earlier.calls,
                        usage: { promptTokens: earlier.prompt_tokens, completionTokens: earlier.completion_tokens }
                    };
                }

                // Paid for by a preview of this workflow: reused, and recorded as this run's own so that
                // a resumed attempt finds it here. The run made no call for it, so it costs the run nothing.
                previewed ??= previewReplies(env.db, run.workflowId).catch((err) => {
                    env.log.warn({ err, runId: run.id }, 'replies paid for by previews could not be read: they are asked again');
                    return new Map();
                });
                const preview = (await previewed).get(hash);
                if (preview) {
                    replied(request);
                    run.onProgress();
                    await replies.add({ node_id: request.nodeId, element_index: index, request_hash: hash, reply: preview.reply, calls: 0, prompt_tokens: 0, completion_tokens: 0 });
                    return { reply: preview.reply, text: JSON.stringify(preview.reply), recorded: true, calls: 0, usage: { promptTokens: 0, completionTokens: 0 } };
                }
            }

            let limiter = limiters.get(request.nodeId);
            if (!limiter) {
                limiter = new AiLimiter(Math.min(env.aiConcurrency, endpoint.concurrency ?? env.aiConcurrency));
                limiters.set(request.nodeId, limiter);
            }

            try {
                const call = () => complete(endpoint, request, { limiter, retryBudgetMs: env.aiRetryBudgetMs, signal: ctx.signal, onThrottled: run.onProgress });
                return await (run.waitOn ? run.waitOn(call) : call());
            } finally {
                run.onProgress();
            }
        },

        async recordReply(request, reply, spent) {
            replied(request);
            const hash = hashes.get(request);
            if (hash !== undefined) {
                await replies.add({
                    node_id: request.nodeId,
                    element_index: request.index ?? -1,
                    request_hash: hash,
                    reply,
                    calls: spent.calls,
                    prompt_tokens: spent.promptTokens,
                    completion_tokens: spent.completionTokens
                });
            }
        },

        aiConcurrency: env.aiConcurrency,

        settle: () => replies.settle()
    };
};
