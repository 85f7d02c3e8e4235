import V8 from 'node:v8';
import Vm from 'node:vm';

// A big run allocates far more than it keeps: rendering and sending 258,000 e-mails holds about 150 MB
// at any moment but makes garbage at a great rate, and V8 then lets its heap grow to four times what
// survived before it collects in full (measured: 700 MB peak RSS against 250 MB idle). And an idle
// server allocates little, so nothing makes it collect afterwards (still 450–500 MB 30 s later).

/**
 * The server process's heap grows by at most half of what survived its last full collection. Same
 * e-mail throughput in bench/big-mail (3,055/s against 2,951/s), peak RSS 450 MB instead of 700 MB.
 * A V8 flag, set by the process's entry point (main.ts), not by tests that embed the app.
 */
export const boundHeapGrowth = (): void => {
    V8.setFlagsFromString('--heap-growing-percent=50');
};

/** How long after the last drain ended the heap is looked at. */
export const HEAP_CHECK_DELAY_MS = 2_000;

/** Above this much heap, and twice what survived the last such collection, a process that ran its last run collects. */
const GROWN_BYTES = 128 * 1024 * 1024;

let collect: (() => void) | null | undefined;
let survived = 0;

/** V8's full collection, without starting node with --expose-gc: the flag applies to new contexts. */
const collector = (): (() => void) | null => {
    if (collect === undefined) {
        try {
            V8.setFlagsFromString('--expose-gc');
            collect = Vm.runInNewContext('gc') as () => void;
        } catch {
            collect = null;
        }
    }

    return collect;
};

/**
 * Gives back the heap a big run left behind, once this process runs nothing else. The pause follows
 * the live heap, which is small by then (7 ms for a 100 MB heap of garbage here). A heap that is large
 * because it holds that much is not collected again and again.
 */
export const giveBackHeap = (): boolean => {
    const size = V8.getHeapStatistics().total_heap_size;
    const gc = size >= Math.max(GROWN_BYTES, 2 * survived) ? collector() : null;
    if (!gc) {
        return false;
    }

    gc();
    survived = V8.getHeapStatistics().used_heap_size;
    return true;
};
