import type { Duplex } from 'node:stream';

import pg from 'pg';

import { storeFailure } from './failures.js';

// Counts and sizes come back as int8; every one of ours fits a JS number.
const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser
};

export interface Queryable {
    query<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
    /** The first row, or null. */
    one<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R | null>;
}

export interface Db extends Queryable {
    readonly pool: pg.Pool;
    /** Runs fn in one transaction on one connection. Use only the handle it is given inside fn. */
    tx<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

const wrap = (client: pg.Pool | pg.PoolClient): Queryable => ({
    async query(text, params) {
        const result = await client.query(text, params as unknown[]);
        return result.rows;
    },
    async one(text, params) {
        const result = await client.query(text, params as unknown[]);
        return result.rows[0] ?? null;
    }
});

/**
 * `sharedSession`: every connection reaches the same database session (embedded PGlite behind
 * pglite-socket, which keeps the session's state when a connection closes). After a database error
 * the pool discards its connection and opens a new one whose client knows no named statement, while
 * the session still holds those of the old one: every prepared statement would then fail with
 * "prepared statement … already exists", and each failure discards the connection again. A new
 * connection therefore starts by forgetting them.
 */
export interface PoolOptions {
    sharedSession?: boolean;
    /** Opening a connection (or waiting for one of the pool's) longer than this fails. */
    connectTimeoutMs?: number;
    /**
     * A statement unanswered this long fails, and its connection is discarded. Measured by the
     * client, since a frozen server (or a network that drops packets) would never cancel it itself.
     */
    statementTimeoutMs?: number;
}

/** A PostgreSQL URL, or (embedded) a function that opens a connection in-process. */
export type Connect = string | (() => Duplex);

export const createPool = (connect: Connect, max: number, options: PoolOptions = {}): pg.Pool => {
    const pool = new pg.Pool({
        ...(typeof connect === 'string' ? { connectionString: connect } : { stream: connect, user: 'postgres', database: 'postgres' }),
        max,
        types,
        idleTimeoutMillis: 0,
        ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
        ...(options.statementTimeoutMs ? { query_timeout: options.statementTimeoutMs } : {}),
        ...(options.sharedSession ? { onConnect: (client: pg.ClientBase) => client.query('DEALLOCATE ALL') } : {})
    });

    // An idle client that loses its connection emits here; without a listener the process would crash.
    pool.on('error', () => {});
    return pool;
};

export const createDb = (pool: pg.Pool): Db => ({
    pool,
    ...wrap(pool),
    async tx(fn) {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
            await client.query('BEGIN');
            const result = await fn(wrap(client));
            await client.query('COMMIT');
            return result;
        } catch (err) {
            // A connection that timed out or broke still has a statement under way (or none at
            // all): it goes, rather than back to the pool for the next caller to hang on.
            if (storeFailure(err)) {
                broken = err as Error;
            } else {
                await client.query('ROLLBACK').catch(() => {});
            }

            throw err;
        } finally {
            client.release(broken);
        }
    }
});
