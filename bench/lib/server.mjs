// Shared by every benchmark: a real flowctl server process (apps/server/dist/main.js) on a fresh store,
// and a verified account on it. Build first (`npm run build`); benchmarks never build.
import { spawn } from 'node:child_process';
import Crypto from 'node:crypto';
import Fs from 'node:fs';
import Net from 'node:net';
import Os from 'node:os';
import Path from 'node:path';

import pg from 'pg';

const root = Path.resolve(Path.dirname(new URL(import.meta.url).pathname), '..', '..');
const mainJs = Path.join(root, 'apps', 'server', 'dist', 'main.js');
/** Node's flags as `npm start` and the `flowctl-server` command pass them (see apps/server/src/main.ts). */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=16'];
const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };
/**
 * BENCH_SERVER_FLAGS adds flags to the server processes, to profile them (Node refuses --cpu-prof in
 * NODE_OPTIONS): `BENCH_SERVER_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' node bench/preview.mjs embedded`.
 */
const { BENCH_SERVER_FLAGS = '' } = process.env;
const EXTRA_FLAGS = BENCH_SERVER_FLAGS.split(/\s+/).filter(Boolean);

/** The built server process as an operator starts it, with `args` (e.g. `--role=worker`). */
export const spawnServer = (args, options) =>
    spawn(process.execPath, [...SERVER_NODE_FLAGS, ...EXTRA_FLAGS, mainJs, ...args], { ...options, env: { ...(options.env ?? process.env), ...SERVER_ENV } });

/** A `--role=worker` process on `env` (a server's, to share its database); its output is not kept. */
export const startWorker = (env) => {
    const child = spawnServer(['--role=worker'], { env, stdio: 'ignore' });
    return { child, exited: new Promise((resolve) => child.once('exit', resolve)) };
};

// Benchmarks are not turbo tasks, so their variables are not declared in turbo.json.
const { BENCH_DATABASE_URL } = process.env;

export const defaultPostgresUrl = () => BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export const freePort = () =>
    new Promise((resolve, reject) => {
        const probe = Net.createServer();
        probe.once('error', reject);
        probe.listen(0, '127.0.0.1', () => {
            const { port } = probe.address();
            probe.close(() => resolve(port));
        });
    });

/** True when a PostgreSQL server answers at `url`; benchmarks print a note and skip it otherwise. */
export const postgresAvailable = async (url = defaultPostgresUrl()) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
    } catch {
        return false;
    } finally {
        await client.end().catch(() => {});
    }
};

const createDatabase = async (adminUrl) => {
    const name = `flowctl_bench_${Crypto.randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
        url: url.toString(),
        async drop() {
            const dropper = new pg.Client({ connectionString: adminUrl });
            await dropper.connect();
            await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await dropper.end();
        }
    };
};

// A first start creates the database (initdb): seconds on a quiet machine, over a minute on a busy one.
const READY_WITHIN_MS = 180_000;

const waitReady = async (url, child, output) => {
    const deadline = Date.now() + READY_WITHIN_MS;
    while (Date.now() < deadline) {
        if (child.exitCode !== null) {
            throw new Error(`server exited with code ${child.exitCode}:\n${output.join('')}`);
        }

        try {
            const res = await fetch(`${url}/readyz`);
            if (res.ok) {
                return;
            }
        } catch {
            // not listening yet
        }

        await new Promise((resolve) => setTimeout(resolve, 100));
    }

    throw new Error(`server not ready within ${READY_WITHIN_MS / 1000} s:\n${output.join('')}`);
};

/**
 * Starts `apps/server/dist/main.js` on a fresh data directory (and, for 'postgres', a fresh database
 * that stop() drops). Returns null, after printing a note, when 'postgres' is asked for and none answers.
 */
export const startServer = async ({ store = 'embedded', env = {}, dataDir: reused = null, args = [] } = {}) => {
    if (!Fs.existsSync(mainJs)) {
        throw new Error(`${mainJs} is missing: run \`npm run build\` first`);
    }

    let database = null;
    if (store === 'postgres') {
        const adminUrl = defaultPostgresUrl();
        if (!(await postgresAvailable(adminUrl))) {
            console.log(`note: no PostgreSQL answers at ${adminUrl} (set BENCH_DATABASE_URL): skipping the postgres store`);
            return null;
        }

        database = await createDatabase(adminUrl);
    }

    // A data directory given by the caller (to restart on the same data) is the caller's to remove.
    const dataDir = reused ?? Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-bench-'));
    const port = await freePort();
    const childEnv = { ...process.env, FLOWCTL_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env };
    for (const name of ['SMTP_URL', 'DATABASE_URL']) {
        if (!(name in env)) {
            delete childEnv[name];
        }
    }

    if (database) {
        childEnv.DATABASE_URL = database.url;
    }

    const spawnedAt = performance.now();
    const output = [];
    const launch = () => {
        const started = spawnServer(args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
        started.stdout.on('data', (chunk) => output.push(chunk.toString()));
        started.stderr.on('data', (chunk) => output.push(chunk.toString()));
        return { child: started, exited: new Promise((resolve) => started.once('exit', resolve)) };
    };
    let { child, exited } = launch();
    const url = `http://127.0.0.1:${port}`;

    const cleanup = async () => {
        await database?.drop().catch((err) => console.log(`note: could not drop the bench database: ${err.message}`));
        if (!reused) {
            Fs.rmSync(dataDir, { recursive: true, force: true });
        }
    };

    try {
        await waitReady(url, child, output);
    } catch (err) {
        child.kill('SIGKILL');
        await exited;
        await cleanup();
        throw err;
    }

    return {
        url,
        dataDir,
        get pid() {
            return child.pid;
        },
        store,
        /** The database this server uses (PostgreSQL only), for other processes to share. */
        databaseUrl: database?.url ?? null,
        /** The environment the server runs with, for other processes to share. */
        env: childEnv,
        /** Kills the process with `signal` and starts it again on the same data; resolves once it is ready. */
        async restart(signal = 'SIGTERM') {
            child.kill(signal);
            await exited;
            ({ child, exited } = launch());
            await waitReady(url, child, output);
        },
        /** From spawning the process to its first 200 from /readyz. */
        readyMs: performance.now() - spawnedAt,
        /** Server log lines so far (LOG_LEVEL=warn unless env says otherwise). */
        output,
        rssBytes() {
            const status = Fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
            const kib = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
            return kib * 1024;
        },
        async stop() {
            if (child.exitCode === null) {
                child.kill('SIGTERM');
                const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
                await exited;
                clearTimeout(timer);
            }

            await cleanup();
        }
    };
};

export const jsonRequest = async (server, method, path, body, token) => {
    const headers = { 'content-type': 'application/json' };
    if (token) {
        headers.authorization = `Bearer ${token}`;
    }

    const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let json;
    try {
        json = text ? JSON.parse(text) : undefined;
    } catch {
        json = undefined;
    }

    return { status: res.status, json, text };
};

/** The six-digit code from the newest outbox .eml addressed to `email` (no SMTP_URL: e-mail lands there). */
const readOtp = (dataDir, email) => {
    const outbox = Path.join(dataDir, 'outbox');
    const files = Fs.existsSync(outbox) ? Fs.readdirSync(outbox).filter((file) => file.endsWith('.eml')) : [];
    const newestFirst = files.map((file) => ({ file, mtime: Fs.statSync(Path.join(outbox, file)).mtimeMs })).sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : -1));
    for (const { file } of newestFirst) {
        const raw = Fs.readFileSync(Path.join(outbox, file), 'utf8');
        // The composer ends header lines with CRLF and body lines as written (LF).
        const split = raw.search(/\r?\n\r?\n/);
        const headers = raw.slice(0, split);
        if (!new RegExp(`^To:.*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'im').test(headers)) {
            continue;
        }

        const code = /\b(\d{6})\b/.exec(raw.slice(split))?.[1];
        if (code) {
            return code;
        }
    }

    return null;
};

/** Registers and verifies an account through the API; the OTP is read from the outbox. */
export const createAccount = async (server, email = `bench-${Crypto.randomBytes(5).toString('hex')}@example.test`) => {
    const password = `bench-${Crypto.randomBytes(9).toString('base64url')}`;
    const registered = await jsonRequest(server, 'POST', '/api/auth/register', { email, password, fullName: 'Bench User' });
    if (registered.status !== 201) {
        throw new Error(`register answered ${registered.status}: ${registered.text}`);
    }

    let otp = null;
    for (let tries = 0; tries < 100 && !otp; tries++) {
        otp = readOtp(server.dataDir, email);
        if (!otp) {
            await new Promise((resolve) => setTimeout(resolve, 50));
        }
    }

    if (!otp) {
        throw new Error(`no OTP e-mail for ${email} in ${server.dataDir}/outbox`);
    }

    const verified = await jsonRequest(server, 'POST', '/api/auth/verify-email', { email, otp });
    if (verified.status !== 200) {
        throw new Error(`verify-email answered ${verified.status}: ${verified.text}`);
    }

    return { token: verified.json.accessToken, refreshToken: verified.json.refreshToken, email, password };
};
