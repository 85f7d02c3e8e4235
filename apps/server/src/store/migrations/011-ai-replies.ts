// Each element's validated language-model reply, recorded as it arrives, so that a run resumed after
// a crash calls the model only for the elements it has no reply for. `request_hash` is a hash of the
// rendered request: a reply is reused only for the very request it answered. Also: an account's
// `ai.concurrency`.
export const sql = `
CREATE TABLE ai_replies (
    run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    node_id text NOT NULL,
    element_index integer NOT NULL,
    request_hash text NOT NULL,
    reply jsonb NOT NULL,
    calls integer NOT NULL,
    prompt_tokens integer NOT NULL,
    completion_tokens integer NOT NULL,
    PRIMARY KEY (run_id, node_id, element_index)
);

-- An account may ask for fewer model calls in flight per AI node than the server's AI_CONCURRENCY.
ALTER TABLE accounts ADD COLUMN ai_concurrency integer;
`;
