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

export interface PoolOptions {
    /** Every connection reaches the same database session (embedded PGlite): see sharedSessionClient. */
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

/** What of `pg`'s connection (8.x, lib/connection.js) this reaches: the statements it knows prepared. */
interface StatementsKnown {
    parsedStatements: Record<string, string>;
    submittedNamedStatements: Record<string, string>;
    once(event: 'end', listener: () => void): void;
}

/** What of `pg`'s client (8.x, lib/client.js) this reaches: a statement's error, and the statement. */
interface ClientInternals {
    _getActiveQuery(): { name?: string; text?: string } | null;
    _handleErrorMessage(msg: { code?: string }): void;
}

const handleErrorMessage = (pg.Client.prototype as unknown as ClientInternals)._handleErrorMessage;

/**
 * Clients of one database session (embedded PGlite behind pglite-socket, which keeps the session
 * when a connection closes): a statement one connection prepared exists for the others, so they
 * share what `pg` knows of them (a statement prepared anew would fail: "already exists"). Sent ahead
 * of its Parse's answer is safe too, as the connections cross to the database in the order they
 * were written (store/thread-socket.ts). A connection that ends forgets what it sent and never had
 * answered: that Parse may never have run.
 *
 * Should the session and the clients disagree all the same (a Parse that ran for a connection that
 * ended first), the session's answer corrects them: the statement fails once, not every time.
 */
const sharedSessionClient = (): typeof pg.Client => {
    const parsed: Record<string, string> = {};
    const submitted: Record<string, string> = {};
    return class SharedSessionClient extends pg.Client {
        _handleErrorMessage(this: ClientInternals, msg: { code?: string }): void {
            const query = this._getActiveQuery();
            if (query?.name && msg.code === '42P05') {
                // duplicate_prepared_statement: the session has it; it is bound from now on.
                parsed[query.name] = query.text ?? '';
            } else if (query?.name && msg.code === '26000') {
                // invalid_sql_statement_name: the session does not have it; it is parsed next time.
                delete parsed[query.name];
            }

            handleErrorMessage.call(this, msg);
        }

        constructor(config?: string | pg.ClientConfig) {
            super(config);
            const connection = (this as unknown as { connection: StatementsKnown }).connection;
            const mine = new Set<string>();
            connection.parsedStatements = parsed;
            connection.submittedNamedStatements = new Proxy(submitted, {
                set(target, name: string, text: string) {
                    mine.add(name);
                    target[name] = text;
                    return true;
                }
            });
            connection.once('end', () => {
                for (const name of mine) {
                    if (parsed[name] === undefined) {
                        delete submitted[name];
                    }
                }
            });
        }
    };
};

export const createPool = (connect: Connect, max: number, options: PoolOptions = {}): pg.Pool => {
    const pool = new pg.Pool({
        ...(typeof connect === 'string' ? { connectionString: connect } : { stream: connect, user: 'postgres', database: 'postgres' }),
        max,
        types,
        idleTimeoutMillis: 0,
        ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
        ...(options.statementTimeoutMs ? { query_timeout: options.statementTimeoutMs } : {}),
        ...(options.sharedSession ? { Client: sharedSessionClient() } : {})
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
