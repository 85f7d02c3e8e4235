import type { Queryable } from './db.js';
import { prepared } from './prepared.js';

/**
 * A write, the smallest there is: a store that answers reads but can write nothing (its disk
 * full, a read-only replica, a frozen server) is not ready. One row, whoever writes it.
 */
export const probeWrite = async (db: Queryable): Promise<void> => {
    await prepared(db, 'flowctl_readiness_probe', 'INSERT INTO readiness (id, checked_at) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET checked_at = now()', []);
};
