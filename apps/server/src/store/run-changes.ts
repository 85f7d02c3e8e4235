import pg from 'pg';
import type { Logger } from 'pino';

/** Announced by the triggers of migration 007 with the run id, on every change of a run or its nodes. */
export const RUN_CHANGES_CHANNEL = 'flowctl_run_changes';

export interface RunChanges {
    /**
     * Calls `onChange` on every later change of the run (and on a lost connection, when changes may
     * have been missed). Resolves once listening, with the unsubscribe; null after close().
     */
    subscribe(runId: string, onChange: () => void): Promise<(() => void) | null>;
    /** Wakes every subscriber and stops listening. */
    close(): Promise<void>;
}

export interface RunChangesOptions {
    pool: pg.Pool;
    /** Null on the embedded store. */
    databaseUrl: string | null;
    log: Logger;
}

/**
 * One listening connection per process, whatever the number of watchers, fanned out by run id.
 * PostgreSQL: a connection of its own, opened at the first watch and reopened after a loss. The
 * embedded store is one session shared by the pool's single connection: its notifications arrive
 * on that connection with the answers to the worker's writes, so it listens there. Call this before
 * the pool's first connection is made, so that connection is seen.
 */
export const createRunChanges = ({ pool, databaseUrl, log }: RunChangesOptions): RunChanges => {
    const listeners = new Map<string, Set<() => void>>();
    let listening: Promise<void> | null = null;
    let client: pg.Client | null = null;
    let closed = false;

    const dispatch = (message: pg.Notification) => {
        if (message.channel === RUN_CHANGES_CHANNEL && message.payload) {
            for (const listener of listeners.get(message.payload) ?? []) {
                listener();
            }
        }
    };

    const lost = () => {
        listening = null;
        client = null;
        for (const set of listeners.values()) {
            for (const listener of set) {
                listener();
            }
        }
    };

    if (!databaseUrl) {
        pool.on('connect', (connection) => {
            connection.on('notification', dispatch);
            // A new connection may be a new session: listen again at the next watch.
            listening = null;
        });
    }

    const listen = async (): Promise<void> => {
        if (!databaseUrl) {
            await pool.query(`LISTEN ${RUN_CHANGES_CHANNEL}`);
            return;
        }

        const connection = new pg.Client({ connectionString: databaseUrl });
        connection.on('notification', dispatch);
        connection.on('error', (err) => {
            log.warn({ err }, 'run change notifications: connection lost; reconnecting at the next watch');
            connection.end().catch(() => {});
        });
        connection.on('end', () => {
            if (client === connection) {
                lost();
            }
        });
        await connection.connect();
        await connection.query(`LISTEN ${RUN_CHANGES_CHANNEL}`);
        client = connection;
    };

    return {
        async subscribe(runId, onChange) {
            if (closed) {
                return null;
            }

            listening ??= listen().catch((err: Error) => {
                listening = null;
                throw err;
            });
            await listening;

            let set = listeners.get(runId);
            if (!set) {
                set = new Set();
                listeners.set(runId, set);
            }

            set.add(onChange);
            return () => {
                set.delete(onChange);
                if (set.size === 0 && listeners.get(runId) === set) {
                    listeners.delete(runId);
                }
            };
        },

        async close() {
            closed = true;
            const connection = client;
            lost();
            await connection?.end().catch(() => {});
        }
    };
};
