import Fs from 'node:fs/promises';
import Path from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
    connectionString: string;
    stop(): Promise<void>;
}

/**
 * PGlite is PostgreSQL in-process. Serving it on loopback lets the same `pg` code (and Agenda's
 * Postgres backend) talk to it as to a real server. PGlite is a single session, so callers must use
 * a pool of one connection (created with `sharedSession`, see store/db.ts).
 *
 * Room for two connections: after a database error the pool closes its connection and opens a new
 * one at once. pglite-socket (0.2.x) counts a connection until the `close` of its socket has been
 * handled (a later tick), and both its own check and `net.Server.maxConnections` refuse the new one
 * in the meantime ("Too many connections", seen by `pg` as "Connection terminated unexpectedly").
 * That is theirs; the second place only ever holds a connection that is going away.
 */
export const startEmbedded = async (dataDir: string): Promise<EmbeddedPostgres> => {
    const dir = Path.join(dataDir, 'pg');
    await Fs.mkdir(dir, { recursive: true });
    // PGlite's shared_buffers default (128 MB) is most of its footprint; 16 MB holds our working set.
    // Measured: a reopen idles at 183 MB RSS instead of 300 MB. work_mem, maintenance_work_mem and
    // wal_buffers made no measurable difference, so they keep their defaults.
    const db = await PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 2 });
    await server.start();

    return {
        connectionString: `postgres://postgres@${server.getServerConn()}/postgres`,
        async stop() {
            await server.stop();
            await db.close();
        }
    };
};
