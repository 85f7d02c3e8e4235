import { execFileSync } from 'node:child_process';
import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';

import Pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { storeFailure } from '../src/store/failures.js';
import { type DbProxy, startDbProxy } from './db-proxy.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { createTestStore, startTestServer, store, type TestServer, type TestStore } from './harness.js';
import { uploadCsv } from './upload-fixtures.js';

const until = async (done: () => boolean, what: string): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!done()) {
        if (Date.now() > deadline) {
            throw new Error(`gave up waiting for ${what}`);
        }

        await new Promise((resolve) => setTimeout(resolve, 20));
    }
};

describe('store failures: what counts as one', () => {
    const withCode = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

    it('knows a store that is down, frozen or full from any other error', () => {
        // pg: refused, dropped, our timeouts; PostgreSQL: shutting down, starting, cancelled by statement_timeout.
        expect(storeFailure(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe('unavailable');
        expect(storeFailure(new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'connect failed'))).toBe('unavailable');
        expect(storeFailure(new Error('Connection terminated unexpectedly'))).toBe('unavailable');
        expect(storeFailure(new Error('Query read timeout'))).toBe('unavailable');
        expect(storeFailure(new Error('timeout exceeded when trying to connect'))).toBe('unavailable');
        expect(storeFailure(withCode('terminating connection due to administrator command', '57P01'))).toBe('unavailable');
        expect(storeFailure(withCode('the database system is starting up', '57P03'))).toBe('unavailable');
        expect(storeFailure(withCode('canceling statement due to statement timeout', '57014'))).toBe('unavailable');
        expect(storeFailure(withCode('could not extend file: No space left on device', '53100'))).toBe('full');
        expect(storeFailure(withCode('ENOSPC: no space left on device, write', 'ENOSPC'))).toBe('full');
        // Not the store: a constraint, a bug, a failed fetch to another service (its cause is not followed).
        expect(storeFailure(withCode('duplicate key value violates unique constraint', '23505'))).toBeNull();
        expect(storeFailure(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
        expect(storeFailure(Object.assign(new TypeError('fetch failed'), { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') }))).toBeNull();
        expect(storeFailure(null)).toBeNull();
    });
});

// A proxy stands between the service and PostgreSQL, so the test can stop or freeze "the
// database" without touching the server other tests share. The embedded store has no network.
if (store === 'postgres') describe('store failures are answered: 503 with Retry-After, never a hang or a 500', () => {
    let base: TestStore;
    let proxy: DbProxy;
    let t: TestServer;
    let account: TestAccount;
    const lines: { level: number; msg: string }[] = [];
    beforeAll(async () => {
        base = await createTestStore();
        proxy = await startDbProxy(base.databaseUrl!);
        const logger = Pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
        t = await startTestServer({
            testStore: { ...base, databaseUrl: proxy.url },
            logger,
            config: { databaseConnectTimeoutMs: 1_000, databaseStatementTimeoutMs: 1_500 }
        });
        account = await createAccount(t);
    });
    afterAll(async () => {
        proxy.restore();
        // Hangs if a connection leaked: the pool ends only when every client came back.
        await t.close();
        await proxy.close();
        await base.drop();
    });

    const listWorkflows = () => t.request({ method: 'GET', url: '/api/workflows', headers: account.headers });

    it('answers 503 with Retry-After while the database is stopped, and serves again once it is back', async () => {
        expect((await listWorkflows()).statusCode).toBe(200);
        proxy.cut();
        const down = await listWorkflows();
        expect(down.statusCode).toBe(503);
        expect(down.headers['retry-after']).toBe('5');
        expect(down.json.message).toBe('The database is unavailable at the moment. Try again shortly.');
        // The 503 is an answer like any other: it names its request and the client's remaining budget.
        const named = await t.request({ method: 'GET', url: '/api/workflows', headers: { ...account.headers, 'x-request-id': 'store-down-1' } });
        expect(named.statusCode).toBe(503);
        expect(named.headers['x-request-id']).toBe('store-down-1');
        expect(named.headers['ratelimit-remaining']).toMatch(/^\d+$/);
        // And a token in its address is neither cached nor sent on as a Referer.
        const token = account.headers.authorization.slice('Bearer '.length);
        const inUrl = await t.request({ method: 'GET', url: `/api/workflows?access_token=${token}`, headers: account.headers });
        expect(inUrl.statusCode).toBe(503);
        expect(inUrl.headers['cache-control']).toBe('no-store');
        expect(inUrl.headers['referrer-policy']).toBe('no-referrer');
        const ready = await t.request({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(503);
        expect(ready.headers['retry-after']).toBe('5');

        proxy.restore();
        expect((await listWorkflows()).statusCode).toBe(200);
        expect((await t.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    });

    it('answers 503 instead of hanging while the database is frozen', async () => {
        proxy.freeze();
        const frozen = await listWorkflows();
        expect(frozen.statusCode).toBe(503);
        expect(frozen.headers['retry-after']).toBe('5');
        expect((await t.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);

        proxy.restore();
        expect((await listWorkflows()).statusCode).toBe(200);
    });

    it("logs the job notification channel's outage once, not once per reconnection attempt", async () => {
        const channelWarnings = () => lines.filter((line) => line.level === 40 && line.msg.startsWith('job notification channel')).length;
        const before = channelWarnings();
        proxy.cut();
        // Every process retries: the API's pool, Agenda's polling, the channel. Wait for plenty of tries.
        const attempts = proxy.attempts;
        await until(() => proxy.attempts >= attempts + 15, 'connection attempts');
        expect(channelWarnings() - before).toBeLessThanOrEqual(1);

        proxy.restore();
        await until(() => lines.some((line) => line.msg === 'job notification channel connected again'), 'the channel to connect again');
        expect((await listWorkflows()).statusCode).toBe(200);
    });
});

/** Whether this process may mount a small file system of its own (root, with the capability). */
const canMount = (): boolean => {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) {
        return false;
    }

    const probe = Path.join(Os.tmpdir(), `flowctl-mount-probe-${process.pid}`);
    try {
        execFileSync('mkdir', ['-p', probe]);
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
        execFileSync('umount', [probe], { stdio: 'ignore' });
        return true;
    } catch {
        return false;
    } finally {
        execFileSync('rm', ['-rf', probe]);
    }
};

const CSV = 'name,email,age,city\nAna,ana@full.example.test,40,Porto';

// The data directory (upload bytes; and the embedded store's database) on a small tmpfs that the test fills up.
if (canMount()) describe('a full disk is answered, not a 500; /readyz says so', () => {
    let dataDir: string;
    let database: TestStore | null = null;
    let t: TestServer;
    let account: TestAccount;
    const filler = () => Path.join(dataDir, 'filler');
    beforeAll(async () => {
        dataDir = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-full-'));
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', dataDir]);
        let databaseUrl: string | null = null;
        if (store === 'embedded') {
            await Fs.cp(inject('pgTemplate'), Path.join(dataDir, 'pg'), { recursive: true });
        } else {
            database = await createTestStore();
            databaseUrl = database.databaseUrl;
        }

        t = await startTestServer({ testStore: { dataDir, databaseUrl, drop: async () => {} } });
        account = await createAccount(t);
    });
    afterAll(async () => {
        await t?.close();
        execFileSync('umount', ['-l', dataDir]);
        await Fs.rm(dataDir, { recursive: true, force: true });
        await database?.drop();
    });

    /** Writes a file until the file system has no room left. */
    const fill = async () => {
        const handle = await Fs.open(filler(), 'w');
        const chunk = Buffer.alloc(1024 * 1024, 1);
        try {
            for (;;) {
                await handle.write(chunk);
            }
        } catch (err) {
            expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
        } finally {
            await handle.close();
        }
    };

    it('answers an upload 503 with Retry-After and a message, and /readyz 503, until space is freed', async () => {
        expect((await uploadCsv(t, account, CSV)).status).toBe(201);
        await fill();

        const full = await uploadCsv(t, account, `${CSV}\n${'Bea,bea@full.example.test,41,Braga\n'.repeat(2_000)}`);
        expect(full.status).toBe(503);
        expect(full.json.message).toBe("The server's storage is full: nothing can be saved until its operator frees disk space. Try again later.");
        const ready = await t.request({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(503);
        expect(ready.headers['retry-after']).toBe('5');
        expect(ready.json.message).toMatch(/full/);

        await Fs.rm(filler());
        // New bytes, so that the upload is written (the same ones would answer the first upload).
        expect((await uploadCsv(t, account, `${CSV}\nCal,cal@full.example.test,52,Porto`)).status).toBe(201);
        expect((await t.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    });
});
