import Boom from '@hapi/boom';
import {
    type AiData,
    type DataSourceData,
    type DeliveryKey,
    type FilterData,
    type Graph,
    type GraphNode,
    type MailMessage,
    type NodeState,
    type OutputData,
    type Ports,
    type SuppressionCandidate,
    executeRun,
    planGraph
} from '@flowctl/engine';

import type { Context } from '../context.js';
import { createWindowCounter, type WindowCounter } from './window-counter.js';
import { type PreviewReplyRecord, previewReplies, writePreviewReply } from '../store/ai-preview-replies.js';
import { rateLimitsStore } from '../store/rate-limits.js';
import { rememberRowLink, testMail } from './preview-test-send.js';
import { type AiEndpoint, complete } from '../ai/client.js';
import { AiLimiter } from '../ai/limiter.js';
import { aiRequestHash } from '../ai/request-hash.js';
import { estimateRun, overBudgetMessage, type UploadSize } from '../run-memory.js';
import type { RunDeps } from './run-deps.js';
import { summarize } from '../store/node-summary.js';
import type { AccountsService } from './accounts.js';
import type { WorkflowsService } from './workflows.js';

// A preview is a run minus sending and recording: the same engine over the same ports' data, with a
// sendMail that keeps the first e-mails instead of sending them and counts the rest. Nothing of it is
// stored but the model replies it paid for (see store/ai-preview-replies.ts).

export const DEFAULT_PREVIEW_LIMIT = 3;
export const MAX_PREVIEW_LIMIT = 20;
/** Test sends per account per hour (sendTestTo: "me"). */
export const TEST_SENDS_PER_HOUR = 10;
/**
 * Test e-mails one test send mails at most, whatever the number of OUTPUT nodes (each shows up to
 * `limit`): without it, a graph of many OUTPUT nodes made one send mail hundreds to the account's address.
 */
export const TEST_EMAILS_PER_SEND = 20;
/** A preview waits for a throttled model at most this long per call, not a run's AI_RETRY_BUDGET_MS: someone is waiting. */
const PREVIEW_AI_RETRY_MS = 30_000;
export const TEST_SUBJECT_PREFIX = '[test] ';

export interface PreviewInput {
    limit?: number;
    graph?: unknown;
    sendTestTo?: 'me';
}

export interface PreviewEmail {
    nodeId: string;
    index: number;
    from: string;
    to: string;
    subject: string;
    text: string;
    /** The HTML part, when the OUTPUT node has `html`. */
    html?: string;
    suppressed: boolean;
}

export interface PreviewNode {
    nodeId: string;
    type: string;
    status: string;
    error: string | null;
    output: Record<string, unknown> | null;
}

export interface Preview {
    emails: PreviewEmail[];
    nodes: PreviewNode[];
    result: { totalRows: number; filteredOut: number; emailsToSend: number | null; suppressed: number };
    testSent?: number;
}

export interface PreviewService {
    preview(accountId: string, workflowId: string, input: PreviewInput, signal?: AbortSignal): Promise<Preview>;
}

const tooMany = (message: string, seconds: number): Boom.Boom => {
    const error = Boom.tooManyRequests(message);
    error.output.headers['Retry-After'] = String(Math.max(1, Math.ceil(seconds)));
    return error;
};

const isNotFound = (err: unknown): boolean => (err as { output?: { statusCode?: number } })?.output?.statusCode === 404;

const words = (text: unknown): string => (typeof text === 'string' ? text : '');
const mentions = (text: string, name: string): boolean => new RegExp(`(^|[^A-Za-z0-9_$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_$])`).test(text);

/**
 * Whether the number of e-mails an OUTPUT would send depends on model replies the preview did not ask
 * for: an upstream AI node left elements unasked, and what decides whether an element is sent (a
 * FILTER between them, the OUTPUT's `to`, or a forEach over the AI's own values) reads its declared
 * fields. Judged by name, so it errs on the side of "unknown" (null) rather than a wrong count.
 */
const dependsOnUnasked = (graph: Graph, output: GraphNode, states: Map<string, NodeState>): boolean => {
    const plan = planGraph(graph);
    const byId = new Map(graph.nodes.map((node) => [node.id, node]));
    const ancestors = (id: string): Set<string> => {
        const seen = new Set<string>();
        const stack = [...(plan.upstream.get(id) ?? [])];
        while (stack.length > 0) {
            const next = stack.pop() as string;
            if (!seen.has(next)) {
                seen.add(next);
                stack.push(...(plan.upstream.get(next) ?? []));
            }
        }

        return seen;
    };
    const above = ancestors(output.id);
    const data = output.data as OutputData;
    for (const id of above) {
        const ai = byId.get(id);
        const unasked = (states.get(id)?.output as { aiNotAsked?: number } | null)?.aiNotAsked ?? 0;
        if (ai?.type !== 'AI' || unasked === 0) {
            continue;
        }

        const names = ((ai.data as AiData).output ?? []).map((field) => field.name);
        const reads = (text: string) => names.some((name) => mentions(text, name)) || mentions(text, id);
        if (reads(words(data.to)) || (mentions(words(data.forEach), id) && !words(data.forEach).includes(`${id}.items`))) {
            return true;
        }

        // A FILTER below the AI node and above the OUTPUT that reads a declared field.
        for (const between of above) {
            const node = byId.get(between);
            if (node?.type === 'FILTER' && ancestors(between).has(id) && reads(words((node.data as FilterData).expr))) {
                return true;
            }
        }
    }

    return false;
};

export const createPreviewService = (ctx: Context, deps: { workflows: WorkflowsService; accounts: AccountsService; run: RunDeps }): PreviewService => {
    /** Accounts with a preview under way in this process: one at a time each. */
    const busy = new Set<string>();
    // Previews of all accounts together hold no more rows at once than the run slots may (RUN_CONCURRENCY).
    const maxAtOnce = ctx.config.runConcurrency;
    const testSends: WindowCounter = createWindowCounter({
        keyPrefix: 'preview-test-send',
        points: TEST_SENDS_PER_HOUR,
        windowMs: 3_600_000,
        store: rateLimitsStore(ctx.db),
        log: ctx.log
    });

    /** The upload sizes a preview would read, as a run's budget check reads them. */
    const sizesOf = async (accountId: string, graph: Graph): Promise<Map<string, UploadSize | null>> => {
        const sizes = new Map<string, UploadSize | null>();
        for (const node of graph.nodes) {
            const uploadId = node.type === 'DATA_SOURCE' ? (node.data as DataSourceData).uploadId : undefined;
            if (uploadId && !sizes.has(uploadId)) {
                sizes.set(uploadId, await deps.run.uploadSize(accountId, uploadId));
            }
        }

        return sizes;
    };

    const execute = async (accountId: string, workflowId: string, graph: Graph, limit: number, signal: AbortSignal): Promise<Preview> => {
        // Over RUN_MEMORY_MB, a run fails before loading anything; its preview says so the same way.
        const sizes = await sizesOf(accountId, graph);
        const budget = ctx.config.runMemoryMb * 1024 * 1024;
        const estimate = estimateRun(graph, (uploadId) => sizes.get(uploadId) ?? null);
        if (estimate.bytes > budget) {
            const error = overBudgetMessage(estimate, budget);
            const nodes = graph.nodes.map((node) => {
                const failed = node.type === 'DATA_SOURCE' && sizes.get((node.data as DataSourceData).uploadId ?? '');
                return { nodeId: node.id, type: node.type, status: failed ? 'FAILED' : 'SKIPPED', error: failed ? error : null, output: null };
            });
            return { emails: [], nodes, result: { totalRows: 0, filteredOut: 0, emailsToSend: 0, suppressed: 0 } };
        }

        const emails: PreviewEmail[] = [];
        const suppressedBy = new Map<string, number>();
        const consent = deps.run.consent;
        const shown = (message: MailMessage, key: DeliveryKey, suppressed: boolean): PreviewEmail =>
            rememberRowLink(
                {
                    nodeId: key.nodeId,
                    index: key.index,
                    from: ctx.config.mailFrom,
                    to: message.to,
                    subject: message.subject,
                    text: message.body,
                    ...(message.html === undefined ? {} : { html: message.html }),
                    suppressed
                },
                message.unsubscribeUrl
            );
        let settings: Promise<AiEndpoint> | null = null;
        let recorded: Promise<Map<string, PreviewReplyRecord>> | null = null;
        const limiters = new Map<string, AiLimiter>();
        const hashes = new WeakMap<object, string>();

        const ports: Ports = {
            async loadRows(data, port) {
                if (data.driveFileId) {
                    return deps.run.readDriveRows(accountId, data.driveFileId, data.sheet);
                }

                if (!data.uploadId) {
                    throw new Error("a DATA_SOURCE needs 'uploadId' or 'driveFileId'");
                }

                try {
                    return await deps.run.readUploadRows(accountId, data.uploadId, port.signal);
                } catch (err) {
                    if (isNotFound(err)) {
                        throw new Error(`upload '${data.uploadId}' does not exist (it was deleted, or belongs to another account)`);
                    }

                    throw err;
                }
            },

            // Only the elements the shown e-mails can need are asked: the first `limit`, in element order.
            // The rest are declined (the engine gives them null fields and counts them as aiNotAsked).
            async complete(request, port) {
                if (request.index !== null && request.index >= limit) {
                    return { reply: undefined, text: '', deferred: true };
                }

                settings ??= deps.run.aiSettings(accountId);
                const endpoint = await settings;
                if (!request.correction) {
                    const hash = aiRequestHash(endpoint, request);
                    hashes.set(request, hash);
                    recorded ??= previewReplies(ctx.db, workflowId);
                    const earlier = (await recorded).get(hash);
                    if (earlier) {
                        // Paid for by an earlier preview of this workflow: asked again, it costs nothing.
                        return { reply: earlier.reply, text: JSON.stringify(earlier.reply), recorded: true, calls: 0, usage: { promptTokens: 0, completionTokens: 0 } };
                    }
                }

                let limiter = limiters.get(request.nodeId);
                if (!limiter) {
                    limiter = new AiLimiter(Math.min(ctx.config.aiConcurrency, endpoint.concurrency ?? ctx.config.aiConcurrency));
                    limiters.set(request.nodeId, limiter);
                }

                return complete(endpoint, request, { limiter, retryBudgetMs: Math.min(ctx.config.aiRetryBudgetMs, PREVIEW_AI_RETRY_MS), signal: port.signal });
            },

            // Recorded under the request's hash: a run enqueued later reuses it (worker/ai-ports.ts).
            async recordReply(request, reply, spent) {
                const hash = hashes.get(request);
                if (hash === undefined) {
                    return;
                }

                try {
                    await writePreviewReply(ctx.db, workflowId, {
                        request_hash: hash,
                        reply,
                        calls: spent.calls,
                        prompt_tokens: spent.promptTokens,
                        completion_tokens: spent.completionTokens
                    });
                } catch (err) {
                    ctx.log.warn({ err, workflowId }, 'a language-model reply paid for by a preview could not be recorded: a run asks for it again');
                }
            },

            aiConcurrency: ctx.config.aiConcurrency,

            // Nothing is sent: the first `limit` e-mails are kept as they are, every other one is only counted.
            async sendMail(message, key) {
                if (key.index < limit) {
                    emails.push(shown(message, key, false));
                }
            },

            // The suppression list as a run checks it (the engine asks per chunk of elements): a
            // suppressed address is shown as such, neither sent nor counted as to send.
            ...(consent
                ? {
                      async suppressed(_nodeId: string, elements: SuppressionCandidate[]) {
                          const listed = await consent.suppressedAmong(accountId, [...new Set(elements.map((e) => e.address))]);
                          return new Set(elements.filter((e) => listed.has(e.address)).map((e) => e.index));
                      },
                      unsubscribeUrl: (to: string) => consent.unsubscribeUrl(accountId, workflowId, to)
                  }
                : {}),
            onSuppressed(message, key) {
                if (key.index < limit) {
                    emails.push(shown(message, key, true));
                }

                suppressedBy.set(key.nodeId, (suppressedBy.get(key.nodeId) ?? 0) + 1);
            },

            // One at a time: e-mails come out in element order, and nothing waits on a server.
            mailConcurrency: 1
        };

        const states = new Map<string, NodeState>();
        const outcome = await executeRun(graph, {
            ports,
            signal,
            hooks: {
                onNodeChange(state) {
                    states.set(state.nodeId, state);
                }
            }
        });

        let emailsToSend: number | null = 0;
        const nodes: PreviewNode[] = outcome.nodes.map((state) => {
            let output = summarize(state.output);
            if (state.type === 'OUTPUT') {
                // A run's emailsSent is what a preview would have sent: shown as what a run would send.
                const toSend = typeof state.output?.emailsSent === 'number' ? state.output.emailsSent : 0;
                const node = graph.nodes.find((n) => n.id === state.nodeId) as GraphNode;
                const unknown = state.status !== 'SKIPPED' && dependsOnUnasked(graph, node, states);
                output = state.status === 'SKIPPED' ? null : { emailsToSend: unknown ? null : toSend, suppressed: suppressedBy.get(state.nodeId) ?? 0 };
                emailsToSend = emailsToSend === null || unknown ? null : emailsToSend + toSend;
            }

            return { nodeId: state.nodeId, type: state.type, status: state.status, error: state.error, output };
        });
        emails.sort((a, b) => (a.nodeId === b.nodeId ? a.index - b.index : 0));
        const suppressed = [...suppressedBy.values()].reduce((sum, n) => sum + n, 0);
        return { emails, nodes, result: { totalRows: outcome.result.totalRows, filteredOut: outcome.result.filteredOut, emailsToSend, suppressed } };
    };

    return {
        async preview(accountId, workflowId, input, signal = new AbortController().signal) {
            const limit = input.limit ?? DEFAULT_PREVIEW_LIMIT;
            // Read first: the route's ownership check answered 404 for another account's id before this.
            const workflow = await deps.workflows.getWorkflow(accountId, workflowId);
            // An unsaved edit is checked like create: every problem at once, column names included, 400.
            // A stored graph saved before column checks may still read a column its upload lacks: its
            // preview shows those elements failing, as the run would fail them.
            const graph = input.graph === undefined ? (workflow.graph as Graph) : await deps.workflows.check(accountId, input.graph);

            if (busy.has(accountId)) {
                throw tooMany('A preview of this account is already under way: one at a time per account. Try again when it has answered.', 1);
            }

            if (busy.size >= maxAtOnce) {
                throw tooMany('The server is working on as many previews as it runs at once: try again in a moment.', 1);
            }

            if (input.sendTestTo === 'me') {
                const counted = testSends.consume(accountId);
                if (counted.blocked) {
                    throw tooMany(`At most ${TEST_SENDS_PER_HOUR} test sends an hour per account: try again in ${Math.ceil(counted.resetMs / 60_000)} min.`, counted.resetMs / 1000);
                }
            }

            busy.add(accountId);
            let preview: Preview;
            try {
                preview = await execute(accountId, workflowId, graph, limit, signal);
            } finally {
                busy.delete(accountId);
            }

            if (input.sendTestTo === 'me') {
                // To the account's own verified address only, never a row's: the row's `to` is not used.
                const me = await deps.accounts.me(accountId);
                // The row's unsubscribe link becomes the caller's own: clicked in a test e-mail, it must not unsubscribe the row.
                const myLink = deps.run.consent?.unsubscribeUrl(accountId, workflowId, me.email);
                let sent = 0;
                for (const email of preview.emails.filter((e) => !e.suppressed).slice(0, TEST_EMAILS_PER_SEND)) {
                    try {
                        await ctx.mailer.send(testMail(email, me.email, `${TEST_SUBJECT_PREFIX}${email.subject}`, myLink));
                    } catch (err) {
                        throw Boom.badGateway(`The test e-mails could not be sent (${sent} of ${preview.emails.length} went): ${(err as Error).message}`);
                    }

                    sent += 1;
                }

                preview.testSent = sent;
            }

            return preview;
        }
    };
};
