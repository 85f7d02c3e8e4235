import Joi from 'joi';

// How a workflow's schedule and hook appear in get and list (see services/schedules.ts).
export const scheduleView = {
    schedule: Joi.object({
        cron: Joi.string().required(),
        timezone: Joi.string().required(),
        nextRunAt: Joi.string().isoDate().allow(null).required().description('When the next run starts; null while paused'),
        paused: Joi.boolean().required(),
        skippedTicks: Joi.number().integer().required().description('Ticks without a run: a run of the workflow was PENDING or RUNNING then (ticks are never queued), or the tick was passed over when handled late; each tick has one run or is counted here')
    })
        .optional()
        .description("Present when the TRIGGER has a schedule"),
    paused: Joi.boolean().optional().description('Present for a workflow with a schedule or a hook'),
    webhook: Joi.boolean().optional().description('Whether runs can be started by POSTing rows to its hook URL')
};

/** A run's origin, on run detail and list entries. */
export const triggerView = Joi.object({
    type: Joi.string().valid('manual', 'schedule', 'webhook', 'retry').required(),
    scheduledFor: Joi.string().isoDate().optional().description('The tick a scheduled run is for')
}).description('What started the run');
