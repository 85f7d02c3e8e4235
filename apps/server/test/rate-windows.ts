/**
 * The request counters' windows are fixed and aligned to the clock (services/window-counter.ts): a
 * test that counts requests up to a limit sees the count start over if its requests straddle a
 * window's end, which a loaded machine makes likely (CI: 200 where 429 was due). Call this before
 * counting: it waits for the next window when less than `marginMs` of this one is left.
 */
export const awayFromWindowEnd = async (windowSeconds: number, marginMs = 10_000): Promise<void> => {
    const windowMs = windowSeconds * 1000;
    const left = windowMs - (Date.now() % windowMs);
    if (left < marginMs) {
        await new Promise((resolve) => setTimeout(resolve, left + 50));
    }
};
