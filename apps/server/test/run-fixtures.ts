import { expect } from 'vitest';

import type { TestAccount } from './fixtures.js';
import type { TestServer } from './harness.js';
import { uploadCsv } from './upload-fixtures.js';

export const TERMINAL = ['SUCCESS', 'FAILED', 'CANCELLED'];

/** A response body, read by assertions. */
// biome-ignore lint/suspicious/noExplicitAny: JSON from the API under test, checked by expect()
export type Json = any;

export interface NodeJson {
    nodeId: string;
    type: string;
    status: string;
    error: string | null;
    startedAt: string | null;
    completedAt: string | null;
    output: Json;
}

export interface RunJson {
    runId: string;
    workflowId: string;
    /** The workflow revision the run executes. */
    revision: number;
    status: string;
    createdAt: string;
    enqueuedAt: string;
    triggeredAt: string;
    startedAt?: string;
    completedAt?: string;
    cancelRequestedAt?: string;
    error: string | null;
    result: { totalRows: number; filteredOut: number; emailsSent: number; possiblyDuplicated?: number; unknownOutcome?: number };
    nodes: NodeJson[];
    trigger: { type: 'manual' | 'schedule' | 'webhook' | 'retry'; scheduledFor?: string };
}

/** Milliseconds of an ISO timestamp the API returned (which must be there). */
export const ms = (iso: string | null | undefined): number => {
    expect(iso).toEqual(expect.any(String));
    return new Date(iso as string).getTime();
};

/** Test-side helpers for runs, all through the HTTP API. */
export const runsApi = (t: TestServer, account: TestAccount) => {
    const call = (method: string, url: string, payload?: unknown) =>
        t.request({ method, url, headers: account.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

    const api = {
        call,
        async upload(csv: string): Promise<string> {
            const res = await uploadCsv(t, account, csv);
            // 200: the account has these bytes under this name already (uploads are recognised by hash).
            expect([200, 201]).toContain(res.status);
            return res.json.uploadId;
        },
        async workflow(graph: unknown, extra: Record<string, unknown> = {}): Promise<string> {
            const res = await call('POST', '/api/workflows', { name: 'test workflow', graph, ...extra });
            expect(res.statusCode, res.payload).toBe(201);
            return res.json.workflowId;
        },
        async enqueue(workflowId: string): Promise<string> {
            const res = await call('POST', `/api/workflows/${workflowId}/run`);
            expect(res.statusCode, res.payload).toBe(202);
            return res.json.runId;
        },
        async get(runId: string): Promise<RunJson> {
            const res = await call('GET', `/api/workflows/runs/${runId}`);
            expect(res.statusCode, res.payload).toBe(200);
            return res.json;
        },
        /** Polls the run until `done` holds (by default: terminal). */
        async waitFor(runId: string, done: (run: RunJson) => boolean = (run) => TERMINAL.includes(run.status), timeoutMs = 20_000): Promise<RunJson> {
            const deadline = Date.now() + timeoutMs;
            for (;;) {
                const run = await api.get(runId);
                if (done(run)) {
                    return run;
                }

                if (Date.now() > deadline) {
                    throw new Error(`run ${runId} still ${run.status} after ${timeoutMs} ms: ${JSON.stringify(run.nodes.map((n) => [n.nodeId, n.status]))}`);
                }

                await new Promise((resolve) => setTimeout(resolve, 20));
            }
        },
        async run(workflowId: string): Promise<RunJson> {
            return api.waitFor(await api.enqueue(workflowId));
        },
        node(run: RunJson, nodeId: string): NodeJson {
            const node = run.nodes.find((n) => n.nodeId === nodeId) as NodeJson;
            expect(node, `node ${nodeId}`).toBeDefined();
            return node;
        }
    };
    return api;
};

/** A body that also reads `city`, for uploads that have it. */
/** TRIGGER -> DATA_SOURCE -> FILTER: a short run that only computes, so nothing held at a mail server holds it. */
export const noMail = (uploadId: string) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'audience', type: 'FILTER', data: { source: '{{people.rows}}', expr: 'age > 0' } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'audience' }
    ]
});

export const CITY_BODY = 'Hi {{item.name}},\nsee you in {{item.city}}.';

/**
 * TRIGGER -> DATA_SOURCE -> FILTER -> OUTPUT, the shape of most workflows. The e-mail reads `name`
 * and `email` (a workflow reading a column its upload lacks is refused): pass `body` to read more.
 */
export const newsletter = (uploadId: string, expr: string, output: Partial<Record<'to' | 'subject' | 'body', string>> = {}) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'audience', type: 'FILTER', data: { source: '{{people.rows}}', expr } },
        {
            id: 'send',
            type: 'OUTPUT',
            data: {
                forEach: '{{audience.items}}',
                to: output.to ?? '{{item.email}}',
                subject: output.subject ?? 'Hello {{item.name}}',
                body: output.body ?? 'Hi {{item.name}},\nsee you soon.'
            }
        }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'audience' },
        { source: 'audience', target: 'send' }
    ]
});
