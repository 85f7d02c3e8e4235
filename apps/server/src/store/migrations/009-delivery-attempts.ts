// Which attempt at a run wrote each delivery intent: the worker that resumes the run reads that
// attempt's local notes (worker/delivery-journal.ts), if they are on its machine.
export const sql = `
ALTER TABLE deliveries ADD COLUMN attempt text;
`;
