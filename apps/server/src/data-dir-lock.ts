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
//
// A socket file can be deleted or replaced while its owner runs (a cleanup script, a hand). Two
// more guards, as PostgreSQL keeps for its postmaster.pid: a start goes on only when the process
// named in server.pid is gone; and the owner looks at its lock every few seconds, and stops if it
// is no longer there, rather than write a database that another process may open.

const LOCK_FILE = 'server.lock';
/** Who owns the lock: pid, the process's start time (Linux), address. */
const PID_FILE = 'server.pid';
const CHECK_EVERY_MS = 2_000;
/** Held while a stale lock is replaced, so that two starts never both replace it. */
const TAKEOVER_DIR = 'server.lock.takeover';
/** A takeover lasts milliseconds; a folder older than this was left by a start that was killed. */
const TAKEOVER_STALE_MS = 10_000;
/** Long enough to outlast a takeover folder left by a start that was killed (then it is removed). */
const TAKEOVER_TRIES = 150;
const TAKEOVER_WAIT_MS = 100;
const ASK_TIMEOUT_MS = 2_000;
/** sun_path holds 108 bytes on Linux (104 on macOS), with its terminating NUL. */
const MAX_SOCKET_PATH = 103;

export interface Owner {
    pid: number;
    /** The HTTP address, once it listens. */
    url: string | null;
}

interface PidFile extends Owner {
    /** When the process started (Linux: clock ticks since boot), so that a reused pid is told apart. */
    start: string | null;
}

export interface DataDirLock {
    /** Tells later starts where this server answers. */
    listening(url: string): void;
    /** From now on, calls `onLost` if the lock is removed or replaced under the running server. */
    watch(onLost: () => void): void;
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

const socketPath = (lockDir: string): string => {
    const absolute = Path.resolve(lockDir, LOCK_FILE);
    const relative = Path.relative(process.cwd(), absolute);
    const path = relative.length < absolute.length && !relative.startsWith('..') ? `./${relative}` : absolute;
    if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
        throw new Error(`FLOWCTL_DATA_DIR ${lockDir} is too long a path for its lock (${LOCK_FILE}, a Unix socket, takes at most ${MAX_SOCKET_PATH} bytes): choose a shorter one`);
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

/** Field 22 of /proc/<pid>/stat; null where there is no /proc or no such process. */
const processStart = async (pid: number): Promise<string | null> => {
    const stat = await Fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
};

const isAlive = (pid: number): boolean => {
    try {
        process.kill(pid, 0);
        return true;
    } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
};

/** The owner server.pid names, if that process still runs: then its lock is not to be replaced. */
const livingOwner = async (lockDir: string): Promise<Owner | null> => {
    const text = await Fs.readFile(Path.join(lockDir, PID_FILE), 'utf8').catch(() => null);
    let owner: PidFile;
    try {
        owner = JSON.parse(text ?? '') as PidFile;
    } catch {
        return null;
    }

    if (typeof owner.pid !== 'number' || owner.pid === process.pid || !isAlive(owner.pid)) {
        return null;
    }

    // Same pid, other process (the pid was reused after a reboot or a crash): not the owner. Where the
    // start time can be read (Linux), a file without one names no owner either.
    const start = await processStart(owner.pid);
    return start !== null && owner.start !== start ? null : { pid: owner.pid, url: owner.url };
};

/**
 * Where the lock lives: beside the database's real folder, so that a data folder whose `pg` is a
 * link to another one's meets that one's lock.
 */
const lockDirOf = async (dataDir: string): Promise<string> => {
    const pg = await Fs.realpath(Path.join(dataDir, 'pg')).catch(() => null);
    return pg ? Path.dirname(pg) : dataDir;
};

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
    const lockDir = await lockDirOf(dataDir);
    const path = socketPath(lockDir);
    const owner: Owner = { pid: process.pid, url: null };
    let server: Net.Server | null = null;
    for (let tries = 0; !server; tries++) {
        // A lock file deleted under a running owner leaves nothing to bind against: server.pid still
        // names the owner.
        const living = await livingOwner(lockDir);
        if (living) {
            throw new DataDirInUseError(dataDir, living);
        }

        server = await listen(path, owner);
        if (server) {
            break;
        }

        const found = await ask(path);
        if (found !== 'gone') {
            throw new DataDirInUseError(dataDir, found);
        }

        // Nobody answers there, and server.pid named no living process: the owner is gone. Replace
        // its lock, unless another start is doing so right now.
        const replaced = await whileTakingOver(lockDir, async () => {
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

    const held = server;
    const { ino } = await Fs.stat(path);
    const start = await processStart(process.pid);
    const writePidFile = () => Fs.writeFile(Path.join(lockDir, PID_FILE), `${JSON.stringify({ ...owner, start } satisfies PidFile)}\n`);
    await writePidFile();

    let released = false;
    let check: NodeJS.Timeout | undefined;
    // The lock does not keep the process alive on its own, as the HTTP server does not either once closed.
    held.unref();
    return {
        listening(url) {
            owner.url = url;
            void writePidFile().catch(() => {});
        },
        watch(onLost) {
            check = setInterval(async () => {
                const now = await Fs.stat(path).catch(() => null);
                if (!released && (!now?.isSocket() || now.ino !== ino)) {
                    clearInterval(check);
                    onLost();
                }
            }, CHECK_EVERY_MS);
            check.unref();
        },
        async release() {
            released = true;
            clearInterval(check);
            // Closing a Unix socket server removes whatever file is at its path: when the lock is no
            // longer ours (removed, and taken by another server), neither it nor server.pid is touched,
            // and the socket goes with the process.
            const now = await Fs.stat(path).catch(() => null);
            if (now?.ino !== ino) {
                return;
            }

            await Fs.rm(Path.join(lockDir, PID_FILE), { force: true });
            await new Promise<void>((resolve) => held.close(() => resolve()));
        }
    };
};
