// Drains that linger. A drain that has run out of runs keeps its workflow's lease a moment before
// giving it up: a run enqueued meanwhile finds the lease held, so its enqueue adds no drain job
// (store/queue.ts drainJobCtes) and wakes the lingering drain instead, which claims it at once.
// Without this, every run of a workflow enqueued one after another (a client that waits for each
// run's end) cost a drain job: written, looked up, locked, saved twice and looked up again, and a
// lease taken, released and checked, about eight statements more than the run itself.

export type Lingered = 'woken' | 'timeout' | 'dismissed';

/** One drain's registration: wakes that come while it is busy are kept for its next linger. */
export class DrainWaker {
    private woken = false;
    private settle: ((how: Lingered) => void) | null = null;

    constructor(private readonly onClose: () => void) {}

    wake(): void {
        this.woken = true;
        this.settle?.('woken');
    }

    dismiss(): void {
        this.settle?.('dismissed');
    }

    /**
     * Waits up to `ms` for a wake (at once if one came since the last linger), or until `signal`
     * aborts or the drain is dismissed (its place is wanted, or the worker stops).
     */
    linger(ms: number, signal: AbortSignal): Promise<Lingered> {
        if (this.woken) {
            this.woken = false;
            return Promise.resolve('woken');
        }

        if (signal.aborted) {
            return Promise.resolve('dismissed');
        }

        return new Promise((resolve) => {
            const done = (how: Lingered) => {
                clearTimeout(timer);
                signal.removeEventListener('abort', onAbort);
                this.settle = null;
                this.woken = false;
                resolve(how);
            };
            const onAbort = () => done('dismissed');
            const timer = setTimeout(() => done('timeout'), ms);
            signal.addEventListener('abort', onAbort);
            this.settle = done;
        });
    }

    close(): void {
        this.dismiss();
        this.onClose();
    }
}

/** The drains of this process by workflow. */
export class DrainWakes {
    private readonly drains = new Map<string, DrainWaker>();

    /** Registers the drain holding the workflow's lease in this process. */
    open(workflowId: string): DrainWaker {
        const waker: DrainWaker = new DrainWaker(() => {
            if (this.drains.get(workflowId) === waker) {
                this.drains.delete(workflowId);
            }
        });
        this.drains.set(workflowId, waker);
        return waker;
    }

    /** A run of the workflow was enqueued while its lease was held: its drain, if here, claims it. */
    wake(workflowId: string): void {
        this.drains.get(workflowId)?.wake();
    }

    /** Every lingering drain gives its lease and its place up now (places all taken, or stopping). */
    dismissAll(): void {
        for (const waker of this.drains.values()) {
            waker.dismiss();
        }
    }
}
