// Revisions: every name and graph a workflow had, immutable, numbered from 1. A run points to the
// revision it executes instead of carrying a copy of the graph.
//
// Existing stores: each workflow's runs, oldest first, are cut where their graph snapshot differs
// from the run before; each stretch becomes one revision (numbered in that order, dated by its first
// run, revision 1 by the workflow's creation), and the workflow as it is now becomes the next one
// unless it equals the last. So every run keeps exactly the graph it had. Earlier names were not
// kept: such revisions carry the workflow's current name.
//
// No foreign key from runs to revisions: its check would lock the revision row on every enqueue
// (after runs' key lock on the workflow), where a pointer must be cheaper than the copy it replaces.
// Revisions go with their workflow (cascade), and retention (retention.ts) keeps every one a run
// names (without an index of its own either: it asks only about revisions past a workflow's newest
// 100, through runs_workflow_recent).
export const sql = `
CREATE TABLE workflow_revisions (
    workflow_id text NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    revision integer NOT NULL,
    name text NOT NULL,
    graph jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workflow_id, revision)
);

ALTER TABLE workflows ADD COLUMN revision integer NOT NULL DEFAULT 1;
ALTER TABLE runs ADD COLUMN revision integer;

WITH marked AS (
    SELECT id, workflow_id, created_at, seq,
           CASE WHEN lag(graph) OVER (PARTITION BY workflow_id ORDER BY created_at, seq) IS DISTINCT FROM graph THEN 1 ELSE 0 END AS starts
    FROM runs
), numbered AS (
    SELECT id, sum(starts) OVER (PARTITION BY workflow_id ORDER BY created_at, seq) AS revision FROM marked
)
UPDATE runs r SET revision = numbered.revision FROM numbered WHERE r.id = numbered.id;

INSERT INTO workflow_revisions (workflow_id, revision, name, graph, created_at)
SELECT DISTINCT ON (r.workflow_id, r.revision) r.workflow_id, r.revision, w.name, r.graph,
       CASE WHEN r.revision = 1 THEN LEAST(w.created_at, r.created_at) ELSE r.created_at END
FROM runs r JOIN workflows w ON w.id = r.workflow_id
ORDER BY r.workflow_id, r.revision, r.created_at, r.seq;

INSERT INTO workflow_revisions (workflow_id, revision, name, graph, created_at)
SELECT w.id, COALESCE(last.revision, 0) + 1, w.name, w.graph, CASE WHEN last.revision IS NULL THEN w.created_at ELSE w.updated_at END
FROM workflows w LEFT JOIN LATERAL (
    SELECT revision, graph FROM workflow_revisions v WHERE v.workflow_id = w.id ORDER BY revision DESC LIMIT 1
) last ON TRUE
WHERE last.graph IS DISTINCT FROM w.graph;

UPDATE workflows w SET revision = (SELECT max(revision) FROM workflow_revisions v WHERE v.workflow_id = w.id);

ALTER TABLE workflows ALTER COLUMN revision DROP DEFAULT;
ALTER TABLE runs ALTER COLUMN revision SET NOT NULL;
ALTER TABLE runs DROP COLUMN graph;
`;
