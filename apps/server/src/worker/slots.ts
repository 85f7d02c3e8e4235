// Run slots: what a run needs to compute (CPU, and the memory its work builds), handed out in this
// process without a round trip. A run holds one while it computes and gives it back while it only
// waits on the network (a model call, an e-mail under way): waiting costs no CPU, and a run that
// waits on a slow endpoint must not keep another account's ready run from starting.
//
// Work-conserving: a free slot goes at once to whoever asks. Fair: when slots are all taken, the
// next free one goes round-robin across the accounts waiting for one (each account's waiters in
// the order they asked), so an account alone uses every slot and one that floods the queue cannot
// keep another account's run from the next free slot.

type Grant = () => void;

export class RunSlots {
    private busy = 0;
    /** Waiters by account; the map's order is the round-robin order (an account served moves last). */
    private readonly waiting = new Map<string, Grant[]>();

    constructor(readonly size: number) {}

    /** Slots held now. */
    get held(): number {
        return this.busy;
    }

    /** Runs waiting for a slot now. */
    get waiters(): number {
        let count = 0;
        for (const queue of this.waiting.values()) {
            count += queue.length;
        }

        return count;
    }

    /** Resolves once the account holds a slot (at once when one is free and nobody waits). */
    acquire(accountId: string): Promise<void> {
        if (this.busy < this.size && this.waiting.size === 0) {
            this.busy++;
            return Promise.resolve();
        }

        return new Promise((resolve) => {
            const queue = this.waiting.get(accountId);
            if (queue) {
                queue.push(resolve);
            } else {
                this.waiting.set(accountId, [resolve]);
            }
        });
    }

    /**
     * Gives a slot back: the next account in turn gets it. The account giving it back (when named)
     * has just had its turn, so its waiters go behind those of the accounts that came while it held
     * the slot; otherwise a flood's waiters, queued first, took the slot once more before them.
     */
    release(releasing?: string): void {
        this.busy--;
        const own = releasing === undefined ? undefined : this.waiting.get(releasing);
        if (own && this.waiting.size > 1) {
            this.waiting.delete(releasing!);
            this.waiting.set(releasing!, own);
        }

        const next = this.waiting.entries().next();
        if (next.done) {
            return;
        }

        const [accountId, queue] = next.value;
        const grant = queue.shift()!;
        this.waiting.delete(accountId);
        if (queue.length > 0) {
            this.waiting.set(accountId, queue);
        }

        this.busy++;
        grant();
    }

    /** Whether an account other than this one waits for a slot. */
    othersWaiting(accountId: string): boolean {
        for (const waiter of this.waiting.keys()) {
            if (waiter !== accountId) {
                return true;
            }
        }

        return false;
    }
}

/**
 * One run's hold on a slot. `waitOn` wraps a network wait: the slot is given back while the run
 * waits, taken again (in turn, if others wait) before the run goes on with the answer. A run with
 * several waits under way computes only between them, so any one of them starting gives the slot
 * back and the first one answered takes it again.
 */
export class SlotHold {
    private holding = false;
    private taking: Promise<void> | null = null;
    private closed = false;

    constructor(
        private readonly slots: RunSlots,
        readonly accountId: string
    ) {}

    get held(): boolean {
        return this.holding;
    }

    async take(): Promise<void> {
        if (this.holding) {
            return;
        }

        this.taking ??= this.slots.acquire(this.accountId).then(() => {
            this.taking = null;
            if (this.closed) {
                this.slots.release(this.accountId);
            } else {
                this.holding = true;
            }
        });
        await this.taking;
    }

    give(): void {
        if (this.holding) {
            this.holding = false;
            this.slots.release(this.accountId);
        }
    }

    /** The run is over: its slot goes back, and so does one still on its way to it. */
    close(): void {
        this.closed = true;
        this.give();
    }

    async waitOn<T>(wait: () => Promise<T>): Promise<T> {
        this.give();
        try {
            return await wait();
        } finally {
            await this.take();
        }
    }
}
