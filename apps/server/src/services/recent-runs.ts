// The account's recent runs across its workflows (GET /api/runs): what a user looks at first, before
// knowing which workflow to ask about.
import type { Context } from '../context.js';
import { listRecentRuns, type RecentRun } from '../store/recent-runs.js';
import { type ListPage, type ListQuery, pageOut, pageRequest } from './paging.js';

export interface RecentRunView {
    runId: string;
    workflowId: string;
    workflowName: string;
    status: string;
    /** How the run was started: `manual` (the API, the CLI, the SDK), `schedule`, `webhook` or `retry` (of `retryOf`). */
    trigger: 'manual' | 'schedule' | 'webhook' | 'retry';
    retryOf: string | null;
    createdAt: string;
    startedAt: string | null;
    completedAt: string | null;
    /** From start to end, or to now for a run still going; null before it starts. */
    durationMs: number | null;
    /** Null before the run has figures. */
    emailsSent: number | null;
}

export interface RecentRunsService {
    list(accountId: string, query: ListQuery): Promise<ListPage<RecentRunView>>;
}

const toView = (run: RecentRun, now: number): RecentRunView => ({
    runId: run.id,
    workflowId: run.workflowId,
    workflowName: run.workflowName,
    status: run.status,
    trigger: run.retryOf ? 'retry' : run.triggerType,
    retryOf: run.retryOf,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    completedAt: run.completedAt?.toISOString() ?? null,
    durationMs: run.startedAt ? Math.max(0, (run.completedAt?.getTime() ?? now) - run.startedAt.getTime()) : null,
    emailsSent: run.emailsSent
});

export const createRecentRunsService = (ctx: Context): RecentRunsService => ({
    async list(accountId, query) {
        const page = await listRecentRuns(ctx.db, accountId, pageRequest(query));
        const now = Date.now();
        return pageOut({ ...page, items: page.items.map((run) => toView(run, now)) });
    }
});
