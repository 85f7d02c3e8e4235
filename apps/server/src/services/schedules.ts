import Crypto from 'node:crypto';

import Boom from '@hapi/boom';
import { type Graph, nextTick, type Schedule } from '@flowctl/engine';

import type { Context } from '../context.js';
import { replaceHook, setPaused, setTrigger, type TriggerRow, triggersOf } from '../store/schedules.js';

/** What get and list show of a workflow's schedule. */
export interface ScheduleView {
    cron: string;
    timezone: string;
    /** Null while paused. */
    nextRunAt: string | null;
    paused: boolean;
    /**
     * Ticks without a run: those that came while a run of the workflow was PENDING or RUNNING (never
     * queued), and those passed over when the schedule was handled late (within SCHEDULE_CATCH_UP_SECONDS).
     */
    skippedTicks: number;
}

export interface TriggerView {
    schedule?: ScheduleView;
    /** Present for a workflow with a schedule or a hook. */
    paused?: boolean;
    /** Whether it has a hook (its URL is shown only when made: at create, PATCH or rotation). */
    webhook?: boolean;
}

export interface SchedulesService {
    /**
     * Makes the workflow's schedule and hook what its TRIGGER says. Returns the hook URL when a hook
     * was made now (it is shown only then). `newHook`: a hook is made even if there is one, whose URL
     * nobody saw (the answer that carried it was lost).
     */
    sync(workflowId: string, graph: Graph, options?: { now?: Date; newHook?: boolean }): Promise<{ hookUrl: string | null }>;
    /** The schedule and hook of those workflows that have one (no statement for a page of others). */
    views(workflows: { id: string; graph: Graph }[]): Promise<Map<string, TriggerView>>;
    /** PATCH {paused}: 400 for a workflow that neither has a schedule nor a hook. */
    pause(accountId: string, workflowId: string, paused: boolean): Promise<void>;
    /** A new hook URL; the old one answers 404 from now on. */
    rotateHook(accountId: string, workflowId: string): Promise<string>;
}

/** The hook id is the secret: 256 bits, URL-safe. Only its SHA-256 is stored, and logged. */
export const newHookId = (): string => Crypto.randomBytes(32).toString('base64url');
export const hookHash = (hookId: string): string => Crypto.createHash('sha256').update(hookId).digest('hex');

const triggerData = (graph: Graph): { schedule?: Schedule; webhook?: boolean } =>
    ((Array.isArray(graph?.nodes) ? graph.nodes : []).find((node) => node?.type === 'TRIGGER')?.data ?? {}) as { schedule?: Schedule; webhook?: boolean };

export const toTriggerView = (row: TriggerRow): TriggerView => ({
    ...(row.cron !== null
        ? {
              schedule: {
                  cron: row.cron,
                  timezone: row.timezone ?? 'UTC',
                  nextRunAt: row.paused || row.next_run_at === null ? null : row.next_run_at.toISOString(),
                  paused: row.paused,
                  skippedTicks: Number(row.skipped_ticks)
              }
          }
        : {}),
    paused: row.paused,
    webhook: row.has_hook
});

export const createSchedulesService = (ctx: Context): SchedulesService => {
    const { db, config } = ctx;
    const hookUrl = (hookId: string) => `${(config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '')}/api/hooks/${hookId}`;

    return {
        async sync(workflowId, graph, { now = new Date(), newHook = false } = {}) {
            const data = triggerData(graph);
            const schedule = data.schedule ? { cron: data.schedule.cron, timezone: data.schedule.timezone ?? 'UTC' } : null;
            const [existing] = await triggersOf(db, [workflowId]);
            const hookId = data.webhook === true && (newHook || !existing?.has_hook) ? newHookId() : null;
            await setTrigger(db, workflowId, {
                schedule: schedule && { ...schedule, nextRunAt: nextTick(schedule, now) },
                hookHash: hookId ? hookHash(hookId) : data.webhook === true ? 'keep' : null
            });
            return { hookUrl: hookId ? hookUrl(hookId) : null };
        },

        async views(workflows) {
            const ids = workflows.filter((w) => {
                const data = triggerData(w.graph);
                return data.schedule !== undefined || data.webhook === true;
            });
            return new Map((await triggersOf(db, ids.map((w) => w.id))).map((row) => [row.workflow_id, toTriggerView(row)]));
        },

        async pause(accountId, workflowId, paused) {
            const [row] = await triggersOf(db, [workflowId]);
            const resumeAt = row?.cron ? nextTick({ cron: row.cron, timezone: row.timezone ?? 'UTC' }, new Date()) : null;
            if (!(await setPaused(db, accountId, workflowId, paused, resumeAt))) {
                throw Boom.badRequest(`Workflow '${workflowId}' has no schedule or hook to pause: 'paused' applies to a TRIGGER with 'schedule' or 'webhook: true'`);
            }
        },

        async rotateHook(accountId, workflowId) {
            const hookId = newHookId();
            if (!(await replaceHook(db, accountId, workflowId, hookHash(hookId)))) {
                throw Boom.conflict(`Workflow '${workflowId}' has no hook: set 'webhook: true' in its TRIGGER's data first (PATCH the graph)`);
            }

            return hookUrl(hookId);
        }
    };
};
