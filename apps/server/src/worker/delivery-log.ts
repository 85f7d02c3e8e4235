import type { Intent, Outcome } from '../store/deliveries.js';
import { LeaseLost } from './lease.js';

/**
 * Writes start at most this often. Each write costs the embedded database about as much as the e-mails
 * it records together, so fewer, fuller writes send faster: a 5,000-row run to a loopback SMTP sink,
 * 64 e-mails under way, one write as soon as the previous ended 950/s, every 20 ms 1,360/s. A crash
 * meanwhile costs nothing on this machine: the delivery journal has already noted each acceptance.
 */
const WRITE_EVERY_MS = 20;

type Write = (outcomes: Outcome[], intents: Intent[]) => Promise<boolean>;

interface Waiting {
    intent: Intent;
    resolve(): void;
    reject(err: Error): void;
}

/**
 * Group commit for delivery records: the outcomes of the e-mails answered and the intents of the
 * next ones share one round trip.
 */
export class DeliveryLog {
    private outcomes: Outcome[] = [];
    private intents: Waiting[] = [];
    private scheduled = false;
    private lastWrite = 0;
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
        await this.flush();
        if (this.failure) {
            throw this.failure;
        }
    }

    /**
     * One write at a time, and at most one waiting behind it, which takes everything queued when it
     * starts, WRITE_EVERY_MS after the previous one started at the earliest.
     */
    private schedule(): void {
        if (!this.scheduled) {
            this.scheduled = true;
            setTimeout(() => void this.flush(), Math.max(0, this.lastWrite + WRITE_EVERY_MS - performance.now()));
        }
    }

    private flush(): Promise<void> {
        this.inflight = this.inflight.then(async () => {
            this.scheduled = false;
            this.lastWrite = performance.now();
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
