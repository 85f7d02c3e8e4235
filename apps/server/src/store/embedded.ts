import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import Fs from 'node:fs/promises';
import type { Socket } from 'node:net';
import Path from 'node:path';
import type { Duplex } from 'node:stream';

import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions, PGLiteSocketServer } from '@electric-sql/pglite-socket';

import { removeGroupAndOtherAccess } from '../data-dir.js';
import { batchMessages } from './embedded-batch.js';
import { socketPair } from './socket-pair.js';

export interface EmbeddedPostgres {
    /** A new connection to the database, for `pg`'s `stream` option. */
    connect(): Duplex;
    stop(): Promise<void>;
}

// PGlite's shared_buffers default (128 MB) is most of its footprint; 16 MB holds our working set.
// Measured: a reopen idles at 183 MB RSS instead of 300 MB. work_mem, maintenance_work_mem and
// wal_buffers made no measurable difference, so they keep their defaults.
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

// Run as `node -e INITDB <pglite module path> <dir> <start params as JSON>`. The path is resolved by
// require (import.meta.resolve does not exist under the test runner), so the child loads PGlite's
// CommonJS build. It gives up if its parent goes away (its stdin, a pipe from the parent, ends).
const INITDB = `
process.stdin.on('end', () => process.exit(1)).resume();
const [modulePath, dir, startParams] = process.argv.slice(1);
require(modulePath)
    .PGlite.create(dir, { startParams: JSON.parse(startParams) })
    .then((db) => db.close())
    .then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
`;

/**
 * The first start creates the database (initdb) in a short-lived child process. In-process, initdb
 * grows the WebAssembly heap and the V8 heap to sizes the server would then keep for its whole life:
 * measured, PGlite alone idles at 312 MB after an in-process initdb (277 MB when it ran in a worker
 * thread) against 174 MB when the process only opens an initialized directory.
 *
 * The child writes into a sibling directory that is renamed into place once initdb is done, so an
 * interrupted first start (initdb takes tens of seconds on a busy machine) leaves no half-made
 * database that the next start would take for a real one.
 */
const initialize = async (dir: string): Promise<void> => {
    if (existsSync(Path.join(dir, 'PG_VERSION'))) {
        return;
    }

    // An empty directory where the database goes (made by hand, or by an earlier version) gives way;
    // one with files in it is not ours to remove.
    const present = await Fs.readdir(dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') {
            return [];
        }

        throw err;
    });
    if (present.length > 0) {
        throw new Error(`${dir} holds files but no database (no PG_VERSION): move it away, or point FLOWCTL_DATA_DIR elsewhere`);
    }

    const staging = `${dir}.initdb`;
    await Fs.rm(staging, { recursive: true, force: true });
    await Fs.mkdir(staging);
    const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const child = spawn(process.execPath, ['-e', INITDB, pglite, staging, JSON.stringify(START_PARAMS)], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-4000);
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    if (code !== 0) {
        throw new Error(`could not create the embedded database in ${dir} (initdb ${signal ? `killed by ${signal}` : `exited with code ${code}`}): ${stderr.trim()}`);
    }

    await Fs.rm(dir, { recursive: true, force: true });
    await Fs.rename(staging, dir);
};

/**
 * PGlite is PostgreSQL in-process. Handing `pg` a connection to it lets the same code (and Agenda's
 * Postgres backend) talk to it as to a real server. PGlite is a single session, so callers must use
 * a pool of one connection (created with `sharedSession`, see store/db.ts).
 *
 * The connection is a pair of in-memory streams, not a socket: nothing outside this process can
 * reach the database. (It was served on a loopback port, where any local user connected as
 * `postgres` without a password, whatever the data directory's mode.) pglite-socket's handler
 * speaks the wire protocol on one end; it wants the queue its server shares between connections,
 * which that package makes but does not export, so a server that never listens lends it.
 */
export const startEmbedded = async (dataDir: string): Promise<EmbeddedPostgres> => {
    const dir = Path.join(dataDir, 'pg');
    await Fs.mkdir(dataDir, { recursive: true });
    await initialize(dir);
    const db = await PGlite.create(dir, { startParams: START_PARAMS });
    // After PGlite has opened (and maybe created) its files: it sets their modes itself.
    await removeGroupAndOtherAccess(dir);
    const { queryQueue } = new PGLiteSocketServer({ db }) as unknown as { queryQueue: PGLiteSocketHandlerOptions['queryQueue'] };
    const handlers = new Set<PGLiteSocketHandler>();
    let stopped = false;

    return {
        connect() {
            const [client, server] = socketPair();
            if (stopped) {
                client.destroy(new Error('the embedded database is closed'));
                return client;
            }

            const handler = new PGLiteSocketHandler({ queryQueue, closeOnDetach: true });
            handlers.add(handler);
            handler.addEventListener('close', () => handlers.delete(handler));
            handler.addEventListener('error', () => handlers.delete(handler));
            void handler.attach(server as unknown as Socket);
            batchMessages(handler);
            return client;
        },
        async stop() {
            stopped = true;
            await Promise.all([...handlers].map((handler) => handler.detach(true)));
            handlers.clear();
            await db.close();
        }
    };
};
