// Live sessions remembered in the process, so that a request with an access token costs no lookup
// (on the embedded store that lookup was half the statements of an authenticated GET).
//
// Only where this process is the only one that can end a session: the embedded store, which one
// process owns. Every end of a session goes through this process's services, which forget every
// remembered session once their write is done; a lookup that raced that write is not remembered
// (the generation it started in has passed). On PostgreSQL another API process may end the session,
// so every request looks it up (test: session-end, across API processes).

/** A remembered session is looked up again after this long all the same. */
const REMEMBER_MS = 60_000;
/** Beyond this many sessions, the cache starts over (each entry is a few hundred bytes). */
const MAX_SESSIONS = 10_000;

interface Entry {
    accountId: string;
    signedInAt: Date;
    until: number;
}

export class SessionCache {
    private readonly live = new Map<string, Entry>();
    private generation = 0;

    constructor(private readonly enabled: boolean) {}

    /** When the session signed in, or null once it has ended; `look` asks the store, always when `fresh`. */
    async signedInAt(sessionId: string, accountId: string, fresh: boolean, look: () => Promise<Date | null>): Promise<Date | null> {
        const entry = fresh ? undefined : this.live.get(sessionId);
        if (entry && entry.accountId === accountId && entry.until > Date.now()) {
            return entry.signedInAt;
        }

        const generation = this.generation;
        const signedInAt = await look();
        if (this.enabled && signedInAt && generation === this.generation) {
            if (this.live.size >= MAX_SESSIONS) {
                this.live.clear();
            }

            this.live.set(sessionId, { accountId, signedInAt, until: Date.now() + REMEMBER_MS });
        }

        return signedInAt;
    }

    /** After any write that may have ended sessions (committed or not). */
    forget(): void {
        this.generation++;
        this.live.clear();
    }

    /** Runs `end` (a write that may end sessions), forgetting every remembered session once it is over. */
    async ending<T>(end: () => Promise<T>): Promise<T> {
        try {
            return await end();
        } finally {
            this.forget();
        }
    }
}
