// The account's recent runs across its workflows (`flowctl runs list` without a workflow, issue 33),
// newest first and keyset-paged on (created_at, id) like the other account-wide lists.
export const sql = `
CREATE INDEX runs_account_recent ON runs (account_id, created_at, id);
`;
