import Fs from 'node:fs/promises';
import Net from 'node:net';
import Path from 'node:path';

// The embedded database belongs to one process: PGlite keeps its own copy of the database's pages
// and writes them back, so a second process on the same files answers requests from a database
// that the first one then overwrites (an upload it answered 201 for was gone after a restart).
//
// The owner holds a Unix socket in the data directory. The kernel lets one process listen on it and
// ends that the moment the process does, however it ends (kill -9, power loss): a socket file
// nobody listens on refuses connections, and the next start takes it over. A process that finds
// the owner alive asks it who it is, to name it.

const LOCK_FILE = 'server.lock';
/** Held while a stale lock is replaced, so that two starts never both replace it. */
const TAKEOVER_DIR = 'server.lock.takeover';
/** A takeover lasts milliseconds; a folder older than this was left by a start that was killed. */
const TAKEOVER_STALE_MS = 10_000;
const TAKEOVER_TRIES = 50;
const TAKEOVER_WAIT_MS = 100;
const ASK_TIMEOUT_MS = 2_000;
/** sun_path holds 108 bytes on Linux (104 on macOS), with its terminating NUL. */
const MAX_SOCKET_PATH = 103;

export interface Owner {
    pid: number;
    /** The HTTP address, once it listens. */
    url: string | null;
}

export interface DataDirLock {
    /** Tells later starts where this server answers. */
    listening(url: string): void;
    release(): Promise<void>;
}

export class DataDirInUseError extends Error {
    constructor(
        readonly dataDir: string,
        readonly owner: Owner | null
    ) {
        const who = owner ? `pid ${owner.pid}${owner.url ? `, ${owner.url}` : ', still starting'}` : 'it did not say who it is';
        super(
            `another flowctl server already uses the embedded database in ${dataDir} (${who}). ` +
                'Stop it first, or give this one its own FLOWCTL_DATA_DIR. To run more than one process on the same data, ' +
                'use PostgreSQL: set DATABASE_URL and start one process with --role api and others with --role worker.'
        );
        this.name = 'DataDirInUseError';
    }
}

const socketPath = (dataDir: string): string => {
    const absolute = Path.resolve(dataDir, LOCK_FILE);
    const relative = Path.relative(process.cwd(), absolute);
    const path = relative.length < absolute.length && !relative.startsWith('..') ? `./${relative}` : absolute;
    if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
        throw new Error(`FLOWCTL_DATA_DIR ${dataDir} is too long a path for its lock (${LOCK_FILE}, a Unix socket, takes at most ${MAX_SOCKET_PATH} bytes): choose a shorter one`);
    }

    return path;
};

/** Who holds the lock at `path`: an Owner, null when it is alive but did not answer, or 'gone'. */
const ask = (path: string): Promise<Owner | null | 'gone'> =>
    new Promise((resolve) => {
        let answer = '';
        const socket = Net.connect(path);
        socket.setTimeout(ASK_TIMEOUT_MS, () => socket.destroy());
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
            answer += chunk;
        });
        socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? 'gone' : null));
        socket.on('close', () => {
            try {
                const owner = JSON.parse(answer) as Owner;
                resolve(typeof owner.pid === 'number' ? owner : null);
            } catch {
                resolve(null);
            }
        });
    });

/** A server listening at `path`, or null when something is there already. */
const listen = (path: string, owner: Owner): Promise<Net.Server | null> =>
    new Promise((resolve, reject) => {
        const server = Net.createServer((socket) => {
            socket.on('error', () => {});
            socket.end(JSON.stringify(owner));
        });
        server.once('error', (err: NodeJS.ErrnoException) => {
            if (err.code === 'EADDRINUSE') {
                resolve(null);
            } else {
                reject(err);
            }
        });
        server.listen(path, () => resolve(server));
    });

/** Runs fn while holding the takeover folder; false when another start holds it. */
const whileTakingOver = async (dataDir: string, fn: () => Promise<void>): Promise<boolean> => {
    const dir = Path.join(dataDir, TAKEOVER_DIR);
    try {
        await Fs.mkdir(dir);
    } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
            throw err;
        }

        const stat = await Fs.stat(dir).catch(() => null);
        if (stat && Date.now() - stat.mtimeMs > TAKEOVER_STALE_MS) {
            await Fs.rm(dir, { recursive: true, force: true });
        }

        return false;
    }

    try {
        await fn();
    } finally {
        await Fs.rm(dir, { recursive: true, force: true });
    }

    return true;
};

/**
 * Makes this process the one owner of the embedded database in `dataDir`, or throws
 * DataDirInUseError naming the owner. Call before opening the database.
 */
export const lockDataDir = async (dataDir: string): Promise<DataDirLock> => {
    const path = socketPath(dataDir);
    const owner: Owner = { pid: process.pid, url: null };
    let server: Net.Server | null = null;
    for (let tries = 0; !server; tries++) {
        server = await listen(path, owner);
        if (server) {
            break;
        }

        const found = await ask(path);
        if (found !== 'gone') {
            throw new DataDirInUseError(dataDir, found);
        }

        // Left by a process that is gone: replace it, unless another start is doing so right now.
        const replaced = await whileTakingOver(dataDir, async () => {
            if ((await ask(path)) === 'gone') {
                await Fs.rm(path, { force: true });
            }
        });
        if (!replaced) {
            if (tries >= TAKEOVER_TRIES) {
                throw new Error(`could not take over the lock of ${dataDir} (${TAKEOVER_DIR} stays): is another server starting there?`);
            }

            await new Promise((resolve) => setTimeout(resolve, TAKEOVER_WAIT_MS));
        }
    }

    // The lock must not keep the process alive on its own, as the HTTP server does not either once closed.
    server.unref();
    const held = server;
    return {
        listening(url) {
            owner.url = url;
        },
        release: () =>
            new Promise<void>((resolve) => {
                // Closing a Unix socket server removes its file.
                held.close(() => resolve());
            })
    };
};
