import type { Intent, Outcome } from '../store/deliveries.js';
import { LeaseLost } from './lease.js';

type Write = (outcomes: Outcome[], intents: Intent[]) => Promise<boolean>;

interface Waiting {
    intent: Intent;
    resolve(): void;
    reject(err: Error): void;
}

/**
 * Group commit for delivery records. Everything queued while a write is in flight goes out in the
 * next one, so an e-mail's outcome shares its round trip with the next e-mail's intent: the window in
 * which a crash leaves an accepted e-mail unrecorded is the time from the server's 250 to that write
 * reaching the database, not a round trip more.
 */
export class DeliveryLog {
    private outcomes: Outcome[] = [];
    private intents: Waiting[] = [];
    private scheduled = false;
    private inflight: Promise<void> = Promise.resolve();
    private failure: Error | null = null;

    constructor(
        private readonly write: Write,
        /** The lease was lost or a record could not be written: the run must stop. */
        private readonly onFailure: (err: Error) => void,
        private readonly workflowId: string
    ) {}

    /** Resolves once the intent is committed; only then may the e-mail be sent. */
    intent(intent: Intent): Promise<void> {
        if (this.failure) {
            return Promise.reject(this.failure);
        }

        return new Promise((resolve, reject) => {
            this.intents.push({ intent, resolve, reject });
            this.schedule();
        });
    }

    outcome(outcome: Outcome): void {
        this.outcomes.push(outcome);
        this.schedule();
    }

    /** Writes what is queued; rejects if any record could not be written. */
    async settle(): Promise<void> {
        this.scheduled = false;
        await this.flush();
        if (this.failure) {
            throw this.failure;
        }
    }

    /**
     * After the current tick: an outcome resolves the engine's sendMail, which renders the next element
     * and queues its intent in microtasks, so both are written together.
     */
    private schedule(): void {
        if (!this.scheduled) {
            this.scheduled = true;
            setImmediate(() => {
                if (this.scheduled) {
                    this.scheduled = false;
                    void this.flush();
                }
            });
        }
    }

    private flush(): Promise<void> {
        this.inflight = this.inflight.then(async () => {
            const outcomes = this.outcomes.splice(0);
            // After a failure no new send may start, but outcomes of sends already made are still facts.
            const waiting = this.failure ? [] : this.intents.splice(0);
            this.rejectWaiting();
            if (outcomes.length === 0 && waiting.length === 0) {
                return;
            }

            try {
                if (!(await this.write(outcomes, waiting.map((w) => w.intent)))) {
                    this.fail(new LeaseLost(this.workflowId));
                }
            } catch (err) {
                const message = (err as Error).message;
                this.fail(outcomes.length > 0 ? new Error(`an e-mail was sent but its delivery could not be recorded, so the run stops: ${message}`) : (err as Error));
            }

            for (const w of waiting) {
                if (this.failure) {
                    w.reject(this.failure);
                } else {
                    w.resolve();
                }
            }
        });
        return this.inflight;
    }

    private rejectWaiting(): void {
        if (this.failure) {
            for (const w of this.intents.splice(0)) {
                w.reject(this.failure);
            }
        }
    }

    private fail(err: Error): void {
        if (!this.failure) {
            this.failure = err;
            this.onFailure(err);
        }
    }
}
