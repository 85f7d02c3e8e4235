// Language-model replies a preview paid for (issue 28). A preview has no run, so its replies are kept
// per workflow under the hash of the request they answer: a preview asked again, and a run enqueued
// later, reuse them instead of paying twice. They go with their workflow, and are pruned with age.
export const sql = `
CREATE TABLE ai_preview_replies (
    workflow_id text NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    request_hash text NOT NULL,
    reply jsonb NOT NULL,
    calls integer NOT NULL,
    prompt_tokens integer NOT NULL,
    completion_tokens integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workflow_id, request_hash)
);
`;
