// Schedules and inbound triggers (issue 31). A run says what started it; a scheduled run also says
// which tick, and (workflow, tick) is unique, so processes computing the same tick insert one run.
// Manual runs and retries keep the default: a retry is told by retry_of.
export const sql = `
ALTER TABLE runs ADD COLUMN trigger_type text NOT NULL DEFAULT 'manual' CHECK (trigger_type IN ('manual', 'schedule', 'webhook'));
ALTER TABLE runs ADD COLUMN scheduled_for timestamptz;
-- Rows posted to a workflow's hook, kept as an upload the TRIGGER reads (never in the job payload).
ALTER TABLE runs ADD COLUMN trigger_upload_id text;
CREATE UNIQUE INDEX runs_scheduled_tick ON runs (workflow_id, scheduled_for);

-- How a workflow starts by itself. One row while its TRIGGER has a schedule or a hook.
CREATE TABLE workflow_triggers (
    workflow_id text PRIMARY KEY REFERENCES workflows (id) ON DELETE CASCADE,
    cron text,
    timezone text,
    -- The first tick not yet handled; the process that moves it on inserts that tick's run.
    next_run_at timestamptz,
    paused boolean NOT NULL DEFAULT false,
    -- Ticks that came while a run of the workflow was PENDING or RUNNING: skipped, not queued.
    skipped_ticks bigint NOT NULL DEFAULT 0,
    -- SHA-256 of the hook id: the id is a secret, looked up by its hash.
    hook_hash text UNIQUE
);
CREATE INDEX workflow_triggers_due ON workflow_triggers (next_run_at) WHERE next_run_at IS NOT NULL AND NOT paused;
`;
