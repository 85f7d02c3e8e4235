// How a delivery record reads in the ledger (GET …/runs/{runId}/deliveries), in one place: the SQL
// that names a row's ledger status, and the condition each status filters on. A new recorded state
// (issue 29's SUPPRESSED) is one line in each.

/** Ledger statuses, as the API spells them. `pending` has no record: it is read from the node's element count. */
export const LEDGER_STATUSES = ['sent', 'failed', 'unknown', 'suppressed', 'pending'] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];
export type RecordedStatus = Exclude<LedgerStatus, 'pending'>;

/**
 * Per recorded status, the rows it names. An element sent again after a copy went out unanswered
 * (`resent`) and then refused stays unknown, as in the run's unknownOutcome: the first copy may have
 * arrived. Every condition but `sent` implies `status <> 'SENT'`, written out so that the planner
 * pages over the partial index deliveries_unsent.
 */
export const RECORDED: Record<RecordedStatus, string> = {
    sent: "status = 'SENT'",
    failed: "status <> 'SENT' AND status = 'FAILED' AND NOT resent",
    unknown: "status <> 'SENT' AND (status = 'SENDING' OR (status = 'FAILED' AND resent))",
    suppressed: "status <> 'SENT' AND status = 'SUPPRESSED'"
};

/** The ledger status of a row, as SQL over its columns. */
export const LEDGER_STATUS_SQL = `CASE
    WHEN status = 'SENT' THEN 'sent'
    WHEN status = 'SENDING' OR (status = 'FAILED' AND resent) THEN 'unknown'
    WHEN status = 'FAILED' THEN 'failed'
    WHEN status = 'SUPPRESSED' THEN 'suppressed'
END`;
