import type { HeaderReader } from './http.js';

/**
 * How many language-model calls of one AI node go out at once, adapted to what the provider says.
 *
 * Additive increase, multiplicative decrease (as TCP does): a 429 or 503 halves the number of calls
 * allowed in flight and holds new calls back for the Retry-After the provider asked for; each reply
 * that comes through grows the number back by about one per round of replies, up to the configured
 * concurrency. A reply announcing that fewer requests (or tokens) remain than calls may be in flight
 * (`x-ratelimit-remaining-*`) paces new calls at the rate the window refills: with the announced limit
 * (`x-ratelimit-limit-*`), one call per `reset / (limit - remaining)`; without it, none until the
 * window resets. So a limit announced in headers is kept with few 429s.
 */
export class AiLimiter {
    private allowed: number;
    private inFlight = 0;
    private heldUntil = 0;
    /** While pacing: the earliest start of the next call, and the spacing between starts. */
    private nextStart = 0;
    private spacing = 0;
    private waiting: (() => void)[] = [];
    private timer: NodeJS.Timeout | null = null;

    constructor(
        /** The most calls in flight: AI_CONCURRENCY, or the account's lower `ai.concurrency`. */
        readonly max: number
    ) {
        this.allowed = max;
    }

    /** Calls allowed in flight right now. */
    get concurrency(): number {
        return Math.floor(this.allowed);
    }

    /** Resolves when a call may go out; the caller must release() it. Rejects when `signal` aborts. */
    async acquire(signal: AbortSignal): Promise<void> {
        while (this.inFlight >= this.concurrency || Date.now() < Math.max(this.heldUntil, this.nextStart)) {
            signal.throwIfAborted();
            await new Promise<void>((resolve) => {
                const wake = () => {
                    signal.removeEventListener('abort', wake);
                    resolve();
                };
                this.waiting.push(wake);
                signal.addEventListener('abort', wake);
                this.armTimer();
                // The hold may have ended since the loop looked (a loaded machine): armTimer then set no
                // timer, and with nothing in flight no release() would ever wake this call.
                if (!this.timer && this.inFlight < this.concurrency) {
                    this.wakeAll();
                }
            });
        }

        signal.throwIfAborted();
        this.inFlight++;
        if (this.spacing > 0) {
            this.nextStart = Date.now() + this.spacing;
        }
    }

    release(): void {
        this.inFlight--;
        this.wakeAll();
    }

    /** A reply came through: grow back, and respect an exhausted window announced in its headers. */
    succeeded(headers: HeaderReader): void {
        this.allowed = Math.min(this.max, this.allowed + 1 / this.allowed);
        let spacing = 0;
        for (const kind of ['requests', 'tokens']) {
            const remaining = Number(headers.get(`x-ratelimit-remaining-${kind}`) ?? Number.NaN);
            const reset = parseDuration(headers.get(`x-ratelimit-reset-${kind}`));
            if (!(remaining < this.concurrency) || reset === null) {
                continue;
            }

            // A request is one of `limit` per window; tokens per call are unknown, so their window is waited out.
            const limit = Number(headers.get(`x-ratelimit-limit-${kind}`) ?? Number.NaN);
            if (kind === 'requests' && limit > remaining) {
                spacing = Math.max(spacing, reset / (limit - remaining));
            } else if (remaining <= 0) {
                this.hold(reset);
            }
        }

        this.spacing = spacing;
        if (spacing === 0) {
            this.nextStart = 0;
        }
    }

    /**
     * The provider said slow down (429, 503): halve, once per hold, and wait as long as it asked. While
     * calls are paced to an announced limit, the pace already sets the rate: a 429 then only waits.
     */
    throttled(waitMs: number): void {
        if (Date.now() >= this.heldUntil && this.spacing === 0) {
            this.allowed = Math.max(1, this.allowed / 2);
        }

        this.hold(waitMs);
    }

    private hold(ms: number): void {
        this.heldUntil = Math.max(this.heldUntil, Date.now() + ms);
        this.armTimer();
    }

    private armTimer(): void {
        const wait = Math.max(this.heldUntil, this.nextStart) - Date.now();
        if (wait <= 0 || this.timer || this.waiting.length === 0) {
            return;
        }

        this.timer = setTimeout(() => {
            this.timer = null;
            this.wakeAll();
        }, wait);
    }

    private wakeAll(): void {
        for (const wake of this.waiting.splice(0)) {
            wake();
        }
    }
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A wait as providers write it: seconds (`12`, `0.5`), or Go-style durations as OpenAI's
 * `x-ratelimit-reset-*` headers do (`6m0s`, `1.5s`, `20ms`). Null when absent or unreadable.
 */
export const parseDuration = (text: string | null): number | null => {
    if (text === null || text.trim() === '') {
        return null;
    }

    const trimmed = text.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) {
        return Number(trimmed) * 1000;
    }

    let total = 0;
    let rest = trimmed;
    while (rest !== '') {
        const part = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest);
        if (!part) {
            return null;
        }

        total += Number(part[1]) * (UNITS[part[2] as string] as number);
        rest = rest.slice(part[0].length);
    }

    return total;
};

/** How long a 429 or 503 asks to wait: `retry-after-ms`, else `retry-after` (seconds or an HTTP date). */
export const retryAfterMs = (headers: HeaderReader | undefined): number | null => {
    const ms = Number(headers?.get('retry-after-ms') ?? Number.NaN);
    if (Number.isFinite(ms) && ms >= 0) {
        return ms;
    }

    const after = headers?.get('retry-after') ?? null;
    if (after === null) {
        return null;
    }

    const seconds = parseDuration(after);
    if (seconds !== null) {
        return seconds;
    }

    const date = Date.parse(after);
    return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
};
