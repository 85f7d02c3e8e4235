import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import Fs from 'node:fs/promises';
import Net from 'node:net';
import Path from 'node:path';

import type { TestAccount } from './fixtures.js';
import { store, type TestServer, type TestStore } from './harness.js';
import { type RunJson, TERMINAL } from './run-fixtures.js';

// The built server as separate processes, for tests that SIGKILL a worker and start another.

export const MAIN = Path.resolve(import.meta.dirname, '..', 'dist', 'main.js');

const freePort = () =>
    new Promise<number>((resolve) => {
        const probe = Net.createServer().listen(0, '127.0.0.1', () => {
            const { port } = probe.address() as { port: number };
            probe.close(() => resolve(port));
        });
    });

/** Whether process `pid` holds the socket listening on 127.0.0.1:`port` (Linux: /proc). */
const listensOn = async (pid: number, port: number): Promise<boolean> => {
    const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
    const inodes = (await Fs.readFile('/proc/net/tcp', 'utf8'))
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter((fields) => fields[1] === local && fields[3] === '0A')
        .map((fields) => `socket:[${fields[9]}]`);
    for (const fd of await Fs.readdir(`/proc/${pid}/fd`).catch(() => [])) {
        if (inodes.includes(await Fs.readlink(`/proc/${pid}/fd/${fd}`).catch(() => ''))) {
            return true;
        }
    }

    return false;
};

export interface Child {
    url: string | null;
    process: ChildProcess;
    output: string[];
    exited: Promise<unknown>;
}

/**
 * The Node on PATH outside node_modules: the system's, which may be older than the Node 24 that npm
 * scripts run on (node@24 is a devDependency), and which an operator may run the server with.
 */
export const systemNode = () => {
    const PATH = (process.env.PATH ?? '')
        .split(Path.delimiter)
        .filter((dir) => !dir.includes(`node_modules${Path.sep}`))
        .join(Path.delimiter);
    return execFileSync('/bin/sh', ['-c', 'command -v node'], { env: { PATH }, encoding: 'utf8' }).trim();
};

/**
 * The built server as a separate process: what an operator runs, and what can be SIGKILLed (see
 * startListening for its port).
 */
export const startChild = async (
    role: 'all' | 'worker',
    testStore: TestStore,
    smtpUrl: string,
    extraEnv: NodeJS.ProcessEnv = {},
    node = process.execPath,
    startMs = 60_000
): Promise<Child> => {
    const spawnOn = (port: number) => {
        const env: NodeJS.ProcessEnv = {
            ...process.env,
            FLOWCTL_DATA_DIR: testStore.dataDir,
            PORT: String(port),
            SMTP_URL: smtpUrl,
            MAIL_FROM: 'flowctl <no-reply@flowctl.test>',
            RUN_LEASE_MS: '2000',
            // One e-mail at a time: the test holds one message and kills the worker while the server is
            // accepting it. With several at once, each message under way at the kill may be sent again.
            SMTP_CONNECTIONS: '1',
            LOG_LEVEL: 'warn',
            ...extraEnv
        };
        if (testStore.databaseUrl) {
            env.DATABASE_URL = testStore.databaseUrl;
        } else {
            delete env.DATABASE_URL;
        }

        return spawn(node, [MAIN, `--role=${role}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    };
    if (role === 'worker') {
        const child = spawnOn(await freePort());
        const output = collect(child);
        return { url: null, process: child, output, exited: new Promise((resolve) => child.once('exit', resolve)) };
    }

    return startListening(spawnOn, startMs);
};

/** The process's output, as it comes. */
const collect = (child: ChildProcess): string[] => {
    const output: string[] = [];
    child.stdout?.on('data', (chunk) => output.push(String(chunk)));
    child.stderr?.on('data', (chunk) => output.push(String(chunk)));
    return output;
};

/**
 * A server process that `spawnOn(port)` starts (stdout and stderr piped), once it answers /readyz
 * on that port itself. The port was free when chosen, but another process may take it before the
 * child listens (a test server or a connection's own ephemeral port: on a loaded machine the child
 * takes seconds to start), and that one may answer /readyz: a child that could not listen is started
 * again on another port.
 */
export const startListening = async (spawnOn: (port: number) => ChildProcess, startMs = 60_000): Promise<Child> => {
    for (let attempt = 1; ; attempt++) {
        try {
            return await listeningOn(await freePort(), spawnOn, startMs);
        } catch (err) {
            if (attempt === 5 || !(err instanceof PortTaken)) {
                throw err;
            }
        }
    }
};

class PortTaken extends Error {}

const listeningOn = async (port: number, spawnOn: (port: number) => ChildProcess, startMs: number): Promise<Child> => {
    const child = spawnOn(port);
    const output = collect(child);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // After 'exit', its last output may still be on its way: 'close' comes once stdout and stderr have ended.
    const closed = new Promise((resolve) => child.once('close', resolve));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + startMs;
    for (;;) {
        if (child.exitCode !== null || Date.now() > deadline || /EADDRINUSE/.test(output.join(''))) {
            // A child still starting is stopped before the test hears of it: the test never gets it to
            // close, and left running it would write into the store the test then removes (ENOTEMPTY).
            await stopChild({ url: null, process: child, output, exited }, 'SIGKILL');
            await closed;
            const message = `the server did not start:\n${output.join('')}`;
            throw new RegExp(`EADDRINUSE.*:${port}\\b`).test(output.join('')) ? new PortTaken(message) : new Error(message);
        }

        // Whatever holds the port may answer, or never: the answer counts once the child is its listener.
        if ((await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then((res) => res.ok, () => false)) && (await listensOn(child.pid!, port))) {
            return { url, process: child, output, exited };
        }

        await new Promise((resolve) => setTimeout(resolve, 100));
    }
};

/**
 * Ends a test of child processes: the children, then the in-process server that set the test up (on
 * the embedded store its app was stopped so that a child could own the database: only its SMTP sink
 * is left), then the store, which the test created and handed to both.
 */
export const closeChildren = async (children: Child[], api: TestServer, testStore: TestStore) => {
    for (const child of children) {
        await stopChild(child);
    }

    await (store === 'embedded' ? api.smtp.close() : api.close());
    await testStore.drop();
};

export const stopChild = async (child: Child, signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.process.exitCode === null && child.process.signalCode === null) {
        child.process.kill(signal);
    }

    await child.exited;
};

export interface RemoteRuns {
    enqueue(workflowId: string): Promise<string>;
    get(runId: string): Promise<RunJson>;
    call(method: string, path: string): Promise<{ status: number; json: RunJson }>;
}

/** Just enough of the API over a real socket, for a server in another process. */
export const remote = (child: Child, account: TestAccount): RemoteRuns => {
    const url = child.url!;
    const call = async (method: string, path: string) => {
        // A server that does not answer went away by itself (the test stops its children only between
        // calls): what it said last is why.
        const res = await fetch(`${url}${path}`, { method, headers: account.headers }).catch((err: Error) => {
            throw new Error(`${method} ${url}${path}: ${(err.cause as Error | undefined)?.message ?? err.message}; the server (exit ${child.process.exitCode ?? child.process.signalCode ?? 'none yet'}) said:\n${child.output.join('').slice(-4000)}`);
        });
        return { status: res.status, json: (await res.json()) as RunJson };
    };
    return {
        call,
        enqueue: async (workflowId: string) => (await call('POST', `/api/workflows/${workflowId}/run`)).json.runId,
        get: async (runId: string) => (await call('GET', `/api/workflows/runs/${runId}`)).json
    };
};

/** Polls a run in a child server until it ends; past a minute, fails with the children's output. */
export const childRunEnded = async <R extends RunJson>(get: (runId: string) => Promise<R>, runId: string, children: Child[]): Promise<R> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
        const run = await get(runId);
        if (TERMINAL.includes(run.status)) {
            return run;
        }

        if (Date.now() > deadline) {
            throw new Error(`run ${runId} is still ${run.status}:\n${children.flatMap((c) => c.output).join('')}`);
        }

        await new Promise((resolve) => setTimeout(resolve, 100));
    }
};
