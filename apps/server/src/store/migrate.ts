import type { Db } from './db.js';
import { migrations } from './migrations/index.js';

// Any fixed number works: it only has to be the same for every flowctl process sharing a database.
const MIGRATION_LOCK = 7_140_221;

/** Applies, in order and in one transaction, every migration the database has not seen yet. */
export const migrate = async (db: Db): Promise<string[]> => {
    return await db.tx(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
            id integer PRIMARY KEY,
            name text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        )`);

        const done = new Set((await tx.query<{ id: number }>('SELECT id FROM schema_migrations')).map((row) => row.id));
        const applied: string[] = [];
        for (const migration of migrations) {
            if (done.has(migration.id)) {
                continue;
            }

            await tx.query(migration.sql);
            await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
            applied.push(migration.name);
        }

        return applied;
    });
};
