// Long loops over a run's elements (a FILTER over a million rows) must not hold the event loop of
// the process that also answers HTTP requests. A Slicer lets a loop run for a few milliseconds,
// then gives way (setImmediate: pending I/O callbacks run first) before it carries on. Yielding is
// not I/O: the engine stays pure, and the results are the same whatever the timing.

/** How long a loop may run before it gives way. */
export const SLICE_MS = 8;
/** Elements between clock reads: reading the clock per element would cost more than the work. */
const CHECK_EVERY = 1024;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class Slicer {
    private count = 0;
    private started = performance.now();

    /**
     * Call once per element: resolves at once most of the time (check `due` first to skip the await),
     * and after a slice's worth of work gives way to the event loop.
     */
    get due(): boolean {
        if (++this.count < CHECK_EVERY) return false;
        this.count = 0;
        return performance.now() - this.started >= SLICE_MS;
    }

    async pause(): Promise<void> {
        await yieldToEventLoop();
        this.started = performance.now();
    }
}
