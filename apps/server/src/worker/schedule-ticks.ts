import { dueTick } from '@flowctl/engine';

import type { Context } from '../context.js';
import { newId } from '../ids.js';
import { DRAIN_JOB } from '../store/queue.js';
import { dueSchedules, takeTick } from '../store/schedules.js';

/**
 * How often a worker looks for schedules whose tick has come. Every worker process looks: whichever
 * comes first takes the tick (see takeTick), so a killed worker costs no tick while another runs.
 */
const LOOK_EVERY_MS = 200;
/** Schedules handled per look; more wait for the next look, which comes at once. */
const BATCH = 200;

export interface ScheduleTicks {
    start(): void;
    stop(): Promise<void>;
}

/**
 * The tick loop: each tick of each schedule becomes one run, inserted like any run (its drain job
 * then takes its turn with every other account's runs), or is skipped and counted while a run of the
 * workflow is PENDING or RUNNING. After downtime only the most recent missed tick runs, and only
 * within SCHEDULE_CATCH_UP_SECONDS. Times are the database's: processes' clocks may differ.
 */
export const createScheduleTicks = (ctx: Context): ScheduleTicks => {
    const log = ctx.log.child({ component: 'schedules' });
    const catchUpMs = ctx.config.schedule.catchUpSeconds * 1000;
    let timer: NodeJS.Timeout | null = null;
    let looking: Promise<void> | null = null;
    let stopped = false;

    const look = async (): Promise<number> => {
        const { now, due } = await dueSchedules(ctx.db, BATCH);
        for (const schedule of due) {
            if (stopped) {
                break;
            }

            const { fire, next, missed } = dueTick({ cron: schedule.cron, timezone: schedule.timezone }, schedule.next_run_at, now, catchUpMs);
            const outcome = await takeTick(ctx.db, schedule.workflow_id, schedule.next_run_at, fire, next, newId('run'), missed);
            if (!outcome?.handled) {
                // Another process took this tick first.
                continue;
            }

            if (fire === null) {
                log.info({ workflowId: schedule.workflow_id, missedSince: schedule.next_run_at }, 'schedule ticks missed longer ago than SCHEDULE_CATCH_UP_SECONDS were dropped');
                continue;
            }

            if (outcome.job_id) {
                ctx.queue.announce(outcome.job_id, DRAIN_JOB);
            }

            if (outcome.held) {
                ctx.queue.wakes.wake(schedule.workflow_id);
            }

            if (outcome.created_at === null) {
                log.info({ workflowId: schedule.workflow_id, scheduledFor: fire }, 'schedule tick skipped: a run of the workflow is still PENDING or RUNNING');
            } else if (fire.getTime() !== schedule.next_run_at.getTime()) {
                log.info({ workflowId: schedule.workflow_id, scheduledFor: fire, missedSince: schedule.next_run_at }, 'schedule caught up on its most recent missed tick only');
            }
        }

        return due.length;
    };

    const loop = async () => {
        let found = 0;
        try {
            found = await look();
        } catch (err) {
            // The store is down or busy: /readyz says so; the next look tries again.
            log.warn({ err }, 'could not look for due schedule ticks');
        }

        if (!stopped) {
            timer = setTimeout(() => {
                looking = loop();
            }, found >= BATCH ? 0 : LOOK_EVERY_MS);
            timer.unref();
        }
    };

    return {
        start() {
            stopped = false;
            looking = loop();
        },
        async stop() {
            stopped = true;
            if (timer) {
                clearTimeout(timer);
            }

            await looking;
        }
    };
};
