import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { type Child, startChild, stopChild } from './child.js';
import { createTestStore, store, type TestStore } from './harness.js';
import { type SmtpSink, startSmtpSink } from './smtp.js';

// Issue 26: a second server started by hand in a folder a running server used answered /readyz 200
// and took an upload (201) into a copy of the embedded database that the first then overwrote; and
// the embedded database listened on a loopback port where any local user connected as `postgres`
// without a password.

/** The loopback TCP ports that process `pid` listens on, read from /proc as any other process can. */
const listeningPorts = async (pid: number): Promise<number[]> => {
    const inodes = new Set<string>();
    for (const fd of await Fs.readdir(`/proc/${pid}/fd`)) {
        const target = await Fs.readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match) {
            inodes.add(match[1]!);
        }
    }

    const ports: number[] = [];
    for (const table of ['tcp', 'tcp6']) {
        const lines = (await Fs.readFile(`/proc/${pid}/net/${table}`, 'utf8')).trim().split('\n').slice(1);
        for (const line of lines) {
            const fields = line.trim().split(/\s+/);
            const [, port] = fields[1]!.split(':');
            // State 0A is LISTEN; field 9 is the socket's inode.
            if (fields[3] === '0A' && inodes.has(fields[9]!)) {
                ports.push(Number.parseInt(port!, 16));
            }
        }
    }

    return ports.sort((a, b) => a - b);
};

/** Tries to sign in to PostgreSQL as `postgres` and list the tables: the answer, or why it failed. */
const tryDatabase = async (config: pg.ClientConfig): Promise<string> => {
    const client = new pg.Client({ user: 'postgres', database: 'postgres', connectionTimeoutMillis: 3000, ...config });
    client.on('error', () => {});
    try {
        await client.connect();
        const { rows } = await client.query("SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname = 'public'");
        return `connected: ${rows[0].tables} tables`;
    } catch (err) {
        return `refused: ${(err as Error).message}`;
    } finally {
        await client.end().catch(() => {});
    }
};

describe('one data folder: one owner of the embedded database, and only it reaches the database', () => {
    let smtp: SmtpSink;
    let testStore: TestStore;
    const children: Child[] = [];

    beforeAll(async () => {
        smtp = await startSmtpSink();
        testStore = await createTestStore();
    });
    afterAll(async () => {
        for (const child of children) {
            await stopChild(child, 'SIGKILL');
        }

        await smtp.close();
        await testStore.drop();
    });

    const start = async (role: 'all' | 'worker' = 'all') => {
        const child = await startChild(role, testStore, smtp.url);
        children.push(child);
        return child;
    };

    it('refuses a second embedded server on the folder, naming the first; with DATABASE_URL, processes share it', async () => {
        const first = await start();
        if (store === 'embedded') {
            const refusal = await start().then(
                () => 'started',
                (err: Error) => err.message
            );
            expect(refusal).toContain(`pid ${first.process.pid}, ${first.url}`);
            expect(refusal).toContain('DATABASE_URL');
        } else {
            // As the operations guide says: API and worker processes on one folder (journal, outbox).
            const worker = await start('worker');
            const second = await start();
            expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
            await stopChild(second);
            expect(worker.process.exitCode).toBeNull();
            await stopChild(worker);
        }

        expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    });

    it('starts at once after its owner was killed (kill -9 leaves the lock file behind)', async () => {
        await stopChild(children[0]!, 'SIGKILL');
        const next = await start();
        expect((await fetch(`${next.url}/readyz`)).status).toBe(200);
        if (store === 'embedded') {
            await expect(start()).rejects.toThrow(`pid ${next.process.pid}, ${next.url}`);
        }
    });

    it('listens on nothing but its HTTP port: another process cannot reach the database', async () => {
        const owner = children.at(-1)!;
        expect(owner.process.exitCode).toBeNull();
        const { port } = new URL(owner.url!);
        expect(await listeningPorts(owner.process.pid!)).toEqual([Number(port)]);
        expect(await tryDatabase({ host: '127.0.0.1', port: Number(port) })).toMatch(/^refused/);

        // The one socket in the data folder is the embedded store's lock, which only says who owns it.
        const sockets: string[] = [];
        for (const entry of await Fs.readdir(testStore.dataDir, { recursive: true })) {
            if ((await Fs.lstat(Path.join(testStore.dataDir, entry))).isSocket()) {
                sockets.push(entry);
            }
        }

        expect(sockets).toEqual(store === 'embedded' ? ['server.lock'] : []);
        if (store === 'embedded') {
            const socketDir = await Fs.mkdtemp(Path.join(testStore.dataDir, 'probe-'));
            await Fs.symlink(Path.join(testStore.dataDir, 'server.lock'), Path.join(socketDir, '.s.PGSQL.5432'));
            expect(await tryDatabase({ host: socketDir, port: 5432 })).toMatch(/^refused/);
        }
    });
});

// The lock under a running owner: removed or replaced by hand, reached through a link, or left half
// taken over by a start that was killed. On the embedded store whatever store this project tests.
describe('the embedded database lock holds when its file is tampered with', () => {
    let smtp: SmtpSink;
    let testStore: TestStore;
    let linked: string;
    const children: Child[] = [];

    beforeAll(async () => {
        smtp = await startSmtpSink();
        const dataDir = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-lock-'));
        await Fs.cp(inject('pgTemplate'), Path.join(dataDir, 'pg'), { recursive: true });
        testStore = { dataDir, databaseUrl: null, drop: () => Fs.rm(dataDir, { recursive: true, force: true }) };
        linked = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-linked-'));
    });
    afterAll(async () => {
        for (const child of children) {
            await stopChild(child, 'SIGKILL');
        }

        await smtp.close();
        await testStore.drop();
        await Fs.rm(linked, { recursive: true, force: true });
    });

    const start = async (store: TestStore = testStore) => {
        const child = await startChild('all', store, smtp.url);
        children.push(child);
        return child;
    };

    it('refuses a second server while the owner runs, and the owner stops, when the lock file was replaced or removed', async () => {
        const owner = await start();
        // Held still, so that it cannot notice before the second start looks (it looks every 2 s).
        owner.process.kill('SIGSTOP');
        const lock = Path.join(testStore.dataDir, 'server.lock');
        await Fs.rm(lock);
        await Fs.writeFile(lock, '');

        // Nobody answers at the lock, but server.pid names a process that still runs.
        await expect(start()).rejects.toThrow(`pid ${owner.process.pid}, ${owner.url}`);
        // Nor when the lock is simply gone, leaving nothing to bind against.
        await Fs.rm(lock);
        await expect(start()).rejects.toThrow(`pid ${owner.process.pid}, ${owner.url}`);
        // Let go, the owner sees its lock replaced and stops rather than share the database.
        owner.process.kill('SIGCONT');
        expect(await owner.exited).toBe(1);
        expect(owner.output.join('')).toContain('was removed or replaced while this server ran');

        const next = await start();
        expect((await fetch(`${next.url}/readyz`)).status).toBe(200);
    });

    it('refuses a data folder whose pg is a link to a running server’s database, naming that server', async () => {
        const owner = children.at(-1)!;
        await Fs.symlink(Path.join(testStore.dataDir, 'pg'), Path.join(linked, 'pg'));
        await expect(start({ dataDir: linked, databaseUrl: null, drop: async () => {} })).rejects.toThrow(`pid ${owner.process.pid}, ${owner.url}`);
    });

    it('starts after a start was killed half-way through a takeover (its folder left behind)', async () => {
        await stopChild(children.at(-1)!, 'SIGKILL');
        const takeover = Path.join(testStore.dataDir, 'server.lock.takeover');
        await Fs.mkdir(takeover);
        const longAgo = new Date(Date.now() - 60_000);
        await Fs.utimes(takeover, longAgo, longAgo);
        const next = await start();
        expect((await fetch(`${next.url}/readyz`)).status).toBe(200);
    });
});
