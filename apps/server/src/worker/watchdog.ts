import { performance } from 'node:perf_hooks';

/**
 * Notices a run that holds its lease but gets nowhere: no e-mail answered, no model reply, no node
 * change for `limitMs`. The lease alone cannot tell, since a worker stuck on a send that never
 * settles still renews it. The limit must exceed the longest a single send may take with retries.
 */
export class Watchdog {
    private last = performance.now();
    private readonly timer: NodeJS.Timeout;

    constructor(
        readonly limitMs: number,
        onStall: (idleMs: number) => void
    ) {
        this.timer = setInterval(
            () => {
                const idle = performance.now() - this.last;
                if (idle >= limitMs) {
                    this.stop();
                    onStall(idle);
                }
            },
            Math.max(10, Math.min(5_000, Math.floor(limitMs / 4)))
        );
        this.timer.unref();
    }

    progress(): void {
        this.last = performance.now();
    }

    stop(): void {
        clearInterval(this.timer);
    }
}
