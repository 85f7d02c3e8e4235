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
 * a pool of one connection.
 */
export const startEmbedded = async (dataDir: string): Promise<EmbeddedPostgres> => {
    const dir = Path.join(dataDir, 'pg');
    await Fs.mkdir(dir, { recursive: true });
    const db = await PGlite.create(dir);
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
    await server.start();

    return {
        connectionString: `postgres://postgres@${server.getServerConn()}/postgres`,
        async stop() {
            await server.stop();
            await db.close();
        }
    };
};
