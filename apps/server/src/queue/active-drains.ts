/**
 * The drains of this process by workflow. A drain whose lease expired while its process was held up
 * (an event loop frozen past the lease; Agenda then cancels its job and hands its place out) is still
 * executing when a new drain of the same workflow may take the lease here. The new one stops it and
 * waits until it has stopped before it claims a run: the old one's e-mails under way are then
 * recorded with their answers, not read as of unknown outcome and sent again (drain.ts).
 */
export class ActiveDrains {
    private readonly drains = new Map<string, { stop(): void; stopped: Promise<void> }>();
    private readonly taking = new Map<string, number>();

    /**
     * Runs `take` (a drain taking `workflowId`'s lease) marked as under way. A run whose execution learns
     * meanwhile that its lease is gone was most likely superseded by this drain, which has not entered
     * yet to say so: it lets its e-mails under way finish rather than aborting them (worker/execute.ts).
     */
    async takingLease<T>(workflowId: string, take: () => Promise<T>): Promise<T> {
        this.taking.set(workflowId, (this.taking.get(workflowId) ?? 0) + 1);
        try {
            return await take();
        } finally {
            const left = (this.taking.get(workflowId) ?? 1) - 1;
            if (left > 0) {
                this.taking.set(workflowId, left);
            } else {
                this.taking.delete(workflowId);
            }
        }
    }

    /** Whether a drain of this process is taking `workflowId`'s lease now. */
    isTakingLease(workflowId: string): boolean {
        return this.taking.has(workflowId);
    }

    /**
     * Registers the drain that has just taken `workflowId`'s lease; `stop` is how a later one stops it.
     * `previous` resolves once the drain it replaces has stopped (null: none here). Call `leave` when done.
     */
    enter(workflowId: string, stop: () => void): { previous: Promise<void> | null; leave(): void } {
        const previous = this.drains.get(workflowId);
        let stopped!: () => void;
        const own = new Promise<void>((resolve) => (stopped = resolve));
        // Stopped once the drains before it have too: one that left while still waiting for an older
        // one (its own lease lost meanwhile) must not let the next claim the run the older one executes.
        const entry = { stop, stopped: previous ? Promise.all([own, previous.stopped]).then(() => {}) : own };
        this.drains.set(workflowId, entry);
        previous?.stop();
        return {
            previous: previous?.stopped ?? null,
            leave: () => {
                if (this.drains.get(workflowId) === entry) {
                    this.drains.delete(workflowId);
                }

                stopped();
            }
        };
    }
}
