import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import Fs from 'node:fs/promises';
import Path from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { removeGroupAndOtherAccess } from '../data-dir.js';
import { type ThreadReply, type ThreadRequest, ThreadSocket, type ThreadStart, transfer } from './thread-socket.js';

export interface EmbeddedPostgres {
    /** A new connection to the database, for `pg`'s `stream` option. */
    connect(): Duplex;
    stop(): Promise<void>;
}

// PGlite's shared_buffers default (128 MB) is most of its footprint; 16 MB holds our working set.
// Measured: a reopen idles at 183 MB RSS instead of 300 MB. work_mem, maintenance_work_mem and
// wal_buffers made no measurable difference, so they keep their defaults. Added to PGlite's own by
// whoever loads PGlite: this thread does not (its code would take heap here too).
const START_PARAMS = ['-c', 'shared_buffers=16MB'];

// Run as `node -e INITDB <pglite module path> <dir> <start params as JSON>`. The path is resolved by
// require (import.meta.resolve does not exist under the test runner), so the child loads PGlite's
// CommonJS build. It gives up if its parent goes away (its stdin, a pipe from the parent, ends).
const INITDB = `
process.stdin.on('end', () => process.exit(1)).resume();
const [modulePath, dir, startParams] = process.argv.slice(1);
const { PGlite } = require(modulePath);
PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, ...JSON.parse(startParams)] })
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
 * Connections to the embedded database's one session. More than one, so that its thread finds the
 * next statement waiting when it ends one, instead of idling for a round trip to the server's thread
 * (measured on trivial runs: 270 runs/s with one connection, 356 with 4, 437 with 8).
 */
export const EMBEDDED_CONNECTIONS = 8;

/**
 * Where the database thread's code is: beside this module once built (both in dist/); run from
 * src/ (by the test runner, which transforms TypeScript for its own process only), the built one.
 */
const threadEntry = (): URL => {
    const beside = new URL('./embedded-thread.js', import.meta.url);
    return existsSync(fileURLToPath(beside)) ? beside : new URL('../../dist/embedded-thread.js', import.meta.url);
};

/**
 * PGlite is PostgreSQL in-process. Handing `pg` a connection to it lets the same code (and Agenda's
 * Postgres backend) talk to it as to a real server. PGlite is a single session, which every
 * connection reaches: a pool of them is created with `sharedSession` (see store/db.ts).
 *
 * It runs in a thread of its own (embedded-thread.ts): statements are computed there while this
 * thread answers requests, and the two cores of a small machine share the work. Measured on trivial
 * runs, PGlite was 38 % of this thread's time, which was the bottleneck.
 *
 * A connection is a stream over the channel between the two threads (thread-socket.ts), not a
 * socket: nothing outside this process can reach the database. (It was served on a loopback port,
 * where any local user connected as `postgres` without a password, whatever the data directory's mode.)
 */
export const startEmbedded = async (dataDir: string): Promise<EmbeddedPostgres> => {
    const dir = Path.join(dataDir, 'pg');
    await Fs.mkdir(dataDir, { recursive: true });
    await initialize(dir);
    const thread = new Worker(threadEntry(), { workerData: { dir, startParams: START_PARAMS } satisfies ThreadStart });
    const sockets = new Map<number, ThreadSocket>();
    let exited = false;
    const exit = new Promise<void>((resolve) =>
        thread.once('exit', () => {
            exited = true;
            // Its connections close, and the store's statements fail as with a server gone (503).
            for (const socket of sockets.values()) {
                socket.receive(null);
            }

            resolve();
        })
    );
    // A thread that fails after its start (PGlite aborted) ends: 'exit' follows.
    thread.on('error', () => {});
    const first = await new Promise<ThreadReply>((resolve) => {
        thread.on('message', (reply: ThreadReply) => {
            if (reply.type === 'data') {
                sockets.get(reply.id)?.receive(reply.data);
            } else {
                resolve(reply);
            }
        });
        void exit.then(() => resolve({ type: 'failed', message: 'its thread ended' }));
    });
    if (first.type !== 'ready') {
        await thread.terminate();
        throw new Error(`could not open the embedded database in ${dir}: ${first.type === 'failed' ? first.message : first.type}`);
    }

    // After PGlite has opened (and maybe created) its files: it sets their modes itself.
    await removeGroupAndOtherAccess(dir);
    const send = (request: ThreadRequest): void => thread.postMessage(request, request.type === 'data' ? transfer(request.data) : []);
    let nextId = 0;
    let stopped = false;

    return {
        connect() {
            const id = nextId++;
            const socket = new ThreadSocket((data) => send({ type: 'data', id, data }));
            if (stopped || exited) {
                socket.destroy(new Error('the embedded database is closed'));
                return socket;
            }

            sockets.set(id, socket);
            socket.once('close', () => sockets.delete(id));
            send({ type: 'connect', id });
            return socket;
        },
        async stop() {
            if (!stopped && !exited) {
                stopped = true;
                send({ type: 'stop' });
            }

            await exit;
        }
    };
};
