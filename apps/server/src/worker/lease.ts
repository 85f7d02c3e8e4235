import Crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';

import type { Queryable } from '../store/db.js';
import { acquireLease, type Renewal, releaseLease, renewLease, type Vitals } from '../store/leases.js';

export class LeaseLost extends Error {
    constructor(workflowId: string) {
        super(`the lease on workflow ${workflowId} was lost: another worker runs it now`);
        this.name = 'LeaseLost';
    }
}

/**
 * This process's right to execute runs of one workflow. `live()` answers without a round trip:
 * the database's expiry is at least `ttlMs` after the moment a renewal was sent, so until
 * `ttlMs - margin` after that moment nobody else can have taken the lease.
 */
export class Lease {
    readonly token = Crypto.randomBytes(18).toString('base64url');
    private readonly controller = new AbortController();
    private sureUntil = 0;
    /** False between release() and a successful take(): there is nothing to renew then. */
    private holding = false;
    /** Changes with each release() and take(), so a renewal that raced one is not misread. */
    private generation = 0;
    /** The last record of the holder whose expired lease this take() took over (null if it was free). */
    private previous: Vitals | null = null;
    /** The account that owns the workflow (known once taken). */
    accountId = '';

    private constructor(
        private readonly db: Queryable,
        readonly workflowId: string,
        private readonly holder: string,
        readonly ttlMs: number
    ) {}

    /** Null when another holder's lease is still live. */
    static async acquire(db: Queryable, workflowId: string, holder: string, ttlMs: number): Promise<Lease | null> {
        const lease = new Lease(db, workflowId, holder, ttlMs);
        return (await lease.take()) ? lease : null;
    }

    /** Aborted once the lease is known to be someone else's. */
    get lost(): AbortSignal {
        return this.controller.signal;
    }

    /** Takes the lease again after release(); false when someone else has it. */
    async take(): Promise<boolean> {
        const sent = performance.now();
        const taken = await acquireLease(this.db, this.workflowId, this.holder, this.token, this.ttlMs);
        if (!taken) {
            return false;
        }

        this.previous = taken.previous;
        this.accountId = taken.accountId;
        this.sureUntil = sent + this.ttlMs * 0.8;
        this.holding = true;
        this.generation++;
        return true;
    }

    /** The previous holder's last record, if it was executing `runId` then (read once). */
    previousVitals(runId: string): Vitals | null {
        const previous = this.previous?.runId === runId ? this.previous : null;
        this.previous = null;
        return previous;
    }

    live(): boolean {
        return !this.lost.aborted && performance.now() < this.sureUntil;
    }

    /** With `vitals` (the heartbeat's), the renewal records them; with `job`, it keeps that job's lock. */
    async renew(runId: string | null, vitals: Vitals | null = null, job: { id: string; lockedAt: Date } | null = null): Promise<Renewal> {
        if (!this.holding) {
            return { held: false, cancelRequested: false };
        }

        const sent = performance.now();
        const generation = this.generation;
        const renewal = await renewLease(this.db, this.workflowId, this.token, this.ttlMs, runId, vitals, job);
        if (generation !== this.generation) {
            return { held: this.holding, cancelRequested: renewal.cancelRequested };
        }

        if (renewal.held) {
            this.sureUntil = sent + this.ttlMs * 0.8;
        } else {
            this.controller.abort(new LeaseLost(this.workflowId));
        }

        return renewal;
    }

    /** Before a side effect: passes while the lease is surely ours, renewing first when unsure. */
    async ensureLive(): Promise<void> {
        if (this.live()) {
            return;
        }

        if (!this.lost.aborted) {
            await this.renew(null).catch(() => {});
        }

        // Unsure is as bad as lost: stop, and let whoever holds the lease next resume the run.
        if (!this.live()) {
            this.markLost();
            throw new LeaseLost(this.workflowId);
        }
    }

    /** The write fence failed: someone else holds the lease now. */
    markLost(): void {
        this.controller.abort(new LeaseLost(this.workflowId));
    }

    async release(): Promise<void> {
        this.holding = false;
        this.generation++;
        this.sureUntil = 0;
        await releaseLease(this.db, this.workflowId, this.token);
    }
}
