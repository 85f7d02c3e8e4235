import pg from 'pg';

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

export const createPool = (connectionString: string, max: number): pg.Pool => {
    const pool = new pg.Pool({ connectionString, max, types, idleTimeoutMillis: 0 });

    // An idle client that loses its connection emits here; without a listener the process would crash.
    pool.on('error', () => {});
    return pool;
};

export const createDb = (pool: pg.Pool): Db => ({
    pool,
    ...wrap(pool),
    async tx(fn) {
        const client = await pool.connect();
        try {
            await client.query('BEGIN');
            const result = await fn(wrap(client));
            await client.query('COMMIT');
            return result;
        } catch (err) {
            await client.query('ROLLBACK').catch(() => {});
            throw err;
        } finally {
            client.release();
        }
    }
});
