// Delivery intents (issue 9 §4). A row is written before its e-mail is sent (status SENDING, with the
// stable Message-ID) and its outcome right after the server answered (SENT or FAILED). A row left
// SENDING by a worker that died has an unknown outcome: it is sent again with the same Message-ID and
// counted as possibly duplicated. A failed row keeps what was rendered, for POST …/retry.
export const sql = `
ALTER TABLE deliveries ADD COLUMN status text NOT NULL DEFAULT 'SENT' CHECK (status IN ('SENDING', 'SENT', 'FAILED'));
ALTER TABLE deliveries ALTER COLUMN status SET DEFAULT 'SENDING';
-- Sent again after a crash left its outcome unknown: the receiver may have it twice.
ALTER TABLE deliveries ADD COLUMN resent boolean NOT NULL DEFAULT false;
ALTER TABLE deliveries ADD COLUMN error text;
-- What was rendered, kept for failed rows only (a retry sends exactly this).
ALTER TABLE deliveries ADD COLUMN content jsonb;
-- The run whose element this is: the run itself, or for a retry run the run it retries (first of the chain).
ALTER TABLE deliveries ADD COLUMN origin_run_id text;
UPDATE deliveries SET origin_run_id = run_id;
ALTER TABLE deliveries ALTER COLUMN origin_run_id SET NOT NULL;
CREATE INDEX deliveries_origin ON deliveries (origin_run_id, node_id, element_index);
CREATE INDEX deliveries_failed ON deliveries (run_id) WHERE status = 'FAILED';

-- A retry run sends the failed rows of this run again instead of executing the graph.
ALTER TABLE runs ADD COLUMN retry_of text;
`;
