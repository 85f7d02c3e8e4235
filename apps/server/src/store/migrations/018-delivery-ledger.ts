// The delivery ledger (GET …/runs/{runId}/deliveries): who got what, from the records alone.
// Each row keeps its recipient, written with the intent (it is rendered then) or, for an element that
// failed before the transport (a bad address), with its outcome; and how many copies of it this run
// handed to the mail server. Rows written before this kept the recipient only in a failed row's
// content; the ledger falls back to that.
export const sql = `
ALTER TABLE deliveries ADD COLUMN recipient text;
ALTER TABLE deliveries ADD COLUMN attempts integer NOT NULL DEFAULT 1;
-- The ledger filtered by a status other than sent pages over these, in (node, element) order,
-- without reading the run's sent rows. Intents pass through it while they are under way.
CREATE INDEX deliveries_unsent ON deliveries (run_id, node_id, element_index) WHERE status <> 'SENT';
-- How many elements each OUTPUT node of a run has (its forEach): elements with no record are pending.
CREATE TABLE output_elements (
    run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    node_id text NOT NULL,
    elements integer NOT NULL,
    PRIMARY KEY (run_id, node_id)
);
`;
