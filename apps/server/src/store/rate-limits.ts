import type { Queryable } from './db.js';
import { prepared } from './prepared.js';

/** Hits counted for one key in the fixed window that ends at `expire` (epoch ms). */
export interface WindowCount {
    key: string;
    points: number;
    expire: number;
}

/**
 * Request counters shared by every API process, in the UNLOGGED `rate_limits` table (migration 003;
 * rate-limiter-flexible keeps the sign-in buckets in the same table, in the same layout).
 */
export interface RateLimitsStore {
    /** Adds every count in one statement and returns each key's total for its window across processes. */
    add(counts: WindowCount[]): Promise<WindowCount[]>;
    /** Deletes counters whose window has ended. */
    prune(now: number): Promise<void>;
}

export const rateLimitsStore = (db: Queryable): RateLimitsStore => ({
    async add(counts) {
        // A row of an older window starts over; a row already in a newer window (another process's
        // clock runs ahead) is kept as it is.
        return await prepared<WindowCount>(
            db,
            'flowctl_rate_limits_add',
            `INSERT INTO rate_limits AS current (key, points, expire)
             SELECT * FROM unnest($1::text[], $2::integer[], $3::bigint[])
             ON CONFLICT (key) DO UPDATE SET
                 points = CASE
                     WHEN current.expire = excluded.expire THEN current.points + excluded.points
                     WHEN current.expire > excluded.expire THEN current.points
                     ELSE excluded.points
                 END,
                 expire = GREATEST(current.expire, excluded.expire)
             RETURNING key, points, expire`,
            [counts.map((count) => count.key), counts.map((count) => count.points), counts.map((count) => count.expire)]
        );
    },
    async prune(now) {
        await prepared(db, 'flowctl_rate_limits_prune', 'DELETE FROM rate_limits WHERE expire < $1', [now]);
    }
});
