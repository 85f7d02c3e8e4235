import type { RunChanges } from '../store/run-changes.js';

// The answers to GET …/runs/{runId} remembered until the run changes, so that a client polling a
// run costs no statement while nothing happened (a poll was most statements of a trivial run: four
// of six on the embedded store, measured at the driver), nor building the view and its ETag again.
//
// Only on the embedded store, which one process owns: every change of a run or of its nodes is
// announced (migration 007's triggers) on that process's own session, ahead of the answer to the
// statement that made it, so a change is known here before anyone can have seen it. On PostgreSQL
// another process may change the run and its announcement arrives late: every poll reads the store.
//
// A read that a change (or a possible miss: a new connection) overtakes is not remembered.

/** Beyond this many runs, the oldest remembered one is forgotten (a run detail is a few kB at most). */
const MAX_RUNS = 1_000;

interface Entry<T> {
    accountId: string;
    value: T;
}

export class RunDetailCache<T> {
    private readonly entries = new Map<string, Entry<T>>();
    /** The reads under way, by run: each is marked stale when its run changes before it is remembered. */
    private readonly reading = new Map<string, Set<{ stale: boolean }>>();

    /** `changes`: null where another process may change runs (PostgreSQL): nothing is remembered. */
    constructor(private readonly changes: RunChanges | null) {
        changes?.observe((runId) => this.changed(runId));
    }

    /** The run's answer for `accountId`: remembered, or read by `read` (and then remembered). */
    async get(accountId: string, runId: string, read: () => Promise<T>): Promise<T> {
        const entry = this.entries.get(runId);
        if (entry && entry.accountId === accountId) {
            return entry.value;
        }

        if (!this.changes || !(await this.changes.listen())) {
            return read();
        }

        const mark = { stale: false };
        let marks = this.reading.get(runId);
        if (!marks) {
            marks = new Set();
            this.reading.set(runId, marks);
        }

        marks.add(mark);
        try {
            const value = await read();
            if (!mark.stale) {
                if (this.entries.size >= MAX_RUNS) {
                    this.entries.delete(this.entries.keys().next().value as string);
                }

                this.entries.set(runId, { accountId, value });
            }

            return value;
        } finally {
            marks.delete(mark);
            if (marks.size === 0 && this.reading.get(runId) === marks) {
                this.reading.delete(runId);
            }
        }
    }

    /** `runId` changed; null: any run may have changed unseen. */
    private changed(runId: string | null): void {
        if (runId === null) {
            this.entries.clear();
            for (const marks of this.reading.values()) {
                for (const mark of marks) {
                    mark.stale = true;
                }
            }

            return;
        }

        this.entries.delete(runId);
        for (const mark of this.reading.get(runId) ?? []) {
            mark.stale = true;
        }
    }
}
