// Runs and everything the worker needs to execute them exactly once per workflow at a time.
// `agenda_jobs` is Agenda's table (@agendajs/postgres-backend 3.0.6 schema, frozen here; the backend runs
// with ensureSchema off) so that a run and its drain job are written in one statement and processes
// starting together never race on DDL. Its updated_at trigger is left out: nothing reads that column.
export const sql = `
CREATE TABLE runs (
    id text PRIMARY KEY,
    -- Breaks ties between runs enqueued in the same transaction instant: FIFO is (created_at, seq).
    seq bigserial NOT NULL UNIQUE,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    workflow_id text NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    -- The graph as it was when the run was enqueued; later edits of the workflow do not change it.
    graph jsonb NOT NULL,
    status text NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'SUCCESS', 'FAILED', 'CANCELLED')),
    created_at timestamptz NOT NULL DEFAULT now(),
    started_at timestamptz,
    completed_at timestamptz,
    result jsonb,
    error text,
    cancel_requested_at timestamptz,
    -- Times a worker died holding this run; a run that kills its worker is not retried forever.
    takeovers integer NOT NULL DEFAULT 0,
    -- Set when a stopping worker gave the run back on purpose (not a takeover).
    handed_back boolean NOT NULL DEFAULT false
);
CREATE INDEX runs_workflow_recent ON runs (workflow_id, created_at, seq);
CREATE INDEX runs_active ON runs (workflow_id, created_at, seq) WHERE status IN ('PENDING', 'RUNNING');
CREATE INDEX runs_running ON runs (workflow_id) WHERE status = 'RUNNING';

CREATE TABLE run_nodes (
    run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    node_id text NOT NULL,
    status text NOT NULL,
    error text,
    started_at timestamptz,
    completed_at timestamptz,
    -- Bounded (counts and first elements) for the run detail; the whole output is read only when paged.
    summary jsonb,
    output jsonb,
    PRIMARY KEY (run_id, node_id)
);

-- One row per e-mail accepted by the transport, written before the next element is sent.
CREATE TABLE deliveries (
    run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    node_id text NOT NULL,
    element_index integer NOT NULL,
    message_id text,
    sent_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, node_id, element_index)
);

-- Who may execute runs of a workflow right now. Every write of run state is fenced by the token.
CREATE TABLE workflow_leases (
    workflow_id text PRIMARY KEY REFERENCES workflows (id) ON DELETE CASCADE,
    holder text NOT NULL,
    token text NOT NULL,
    acquired_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);

ALTER TABLE workflows ADD COLUMN webhook_secret_enc text;

CREATE TABLE IF NOT EXISTS agenda_jobs (
    id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
    name VARCHAR(255) NOT NULL,
    priority INTEGER NOT NULL DEFAULT 0,
    next_run_at TIMESTAMPTZ,
    type VARCHAR(10) NOT NULL DEFAULT 'normal' CHECK (type IN ('normal', 'single')),
    locked_at TIMESTAMPTZ,
    last_finished_at TIMESTAMPTZ,
    failed_at TIMESTAMPTZ,
    fail_count INTEGER DEFAULT NULL,
    fail_reason TEXT,
    repeat_timezone VARCHAR(100),
    last_run_at TIMESTAMPTZ,
    repeat_interval VARCHAR(255),
    data JSONB DEFAULT '{}'::jsonb,
    repeat_at VARCHAR(255),
    disabled BOOLEAN DEFAULT FALSE,
    progress REAL,
    fork BOOLEAN DEFAULT FALSE,
    last_modified_by VARCHAR(255),
    debounce_started_at TIMESTAMPTZ,
    start_date TIMESTAMPTZ,
    end_date TIMESTAMPTZ,
    skip_days JSONB,
    created_at TIMESTAMPTZ DEFAULT NOW(),
    updated_at TIMESTAMPTZ DEFAULT NOW()
);
CREATE INDEX IF NOT EXISTS agenda_jobs_find_and_lock_idx
    ON agenda_jobs (name, next_run_at, priority DESC, locked_at, disabled) WHERE disabled = FALSE;
CREATE UNIQUE INDEX IF NOT EXISTS agenda_jobs_single_job_idx ON agenda_jobs (name) WHERE type = 'single';
CREATE INDEX IF NOT EXISTS agenda_jobs_locked_at_idx ON agenda_jobs (locked_at) WHERE locked_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS agenda_jobs_next_run_at_idx ON agenda_jobs (next_run_at) WHERE next_run_at IS NOT NULL;
-- Finds a drain job of one workflow that has not been picked up yet.
CREATE INDEX agenda_jobs_waiting_drain ON agenda_jobs ((data ->> 'workflowId'))
    WHERE name = 'drain-workflow' AND locked_at IS NULL AND next_run_at IS NOT NULL;
`;
