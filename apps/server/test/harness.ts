import Crypto from 'node:crypto';
import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';

import type { ServerInjectOptions, ServerInjectResponse } from '@hapi/hapi';
import pg from 'pg';
import Pino, { type Logger } from 'pino';
import { inject } from 'vitest';

import { type App, createApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { type Contract, createContract } from './contract.js';
import { type SmtpSink, startSmtpSink } from './smtp.js';

export const store = process.env.FLOWCTL_TEST_STORE === 'postgres' ? 'postgres' : 'embedded';

export interface TestStore {
    dataDir: string;
    databaseUrl: string | null;
    drop(): Promise<void>;
}

/**
 * A fresh, migrated store for one suite: a copy of the template PGlite data directory, or a new
 * database on the PostgreSQL server at TEST_DATABASE_URL, copied from the run's migrated template.
 */
export const createTestStore = async (): Promise<TestStore> => {
    const dataDir = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-test-'));
    if (store === 'embedded') {
        await Fs.cp(inject('pgTemplate'), Path.join(dataDir, 'pg'), { recursive: true });
        return { dataDir, databaseUrl: null, drop: () => Fs.rm(dataDir, { recursive: true, force: true }) };
    }

    const admin = new URL(process.env.TEST_DATABASE_URL!);
    const name = `flowctl_test_${Crypto.randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    // Nothing stays connected to the template (global setup closed its server), as CREATE DATABASE needs.
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplateDatabase')}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;

    return {
        dataDir,
        databaseUrl: url.toString(),
        async drop() {
            const dropper = new pg.Client({ connectionString: admin.toString() });
            await dropper.connect();
            await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await dropper.end();
            await Fs.rm(dataDir, { recursive: true, force: true });
        }
    };
};

export interface TestServer {
    app: App;
    url: string;
    smtp: SmtpSink;
    config: Config;
    testStore: TestStore;
    /** The server's /openapi.json as a checker: request() applies it; real-socket helpers call it themselves. */
    /** Null for a worker-only server (`role: 'worker'`). */
    contract: Contract | null;
    /** hapi's in-process request, with JSON parsed, its response checked against /openapi.json. */
    // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies of every shape
    request(options: ServerInjectOptions): Promise<ServerInjectResponse & { json: any }>;
    close(): Promise<void>;
}

export interface TestServerOptions {
    config?: Partial<Config>;
    /** Reuse a store (e.g. to restart on the same data); it is then not dropped on close. */
    testStore?: TestStore;
    /** Silent by default (TEST_LOG_LEVEL to see the logs). */
    logger?: Logger;
}

/** A real server on loopback over a real store, with a real SMTP sink receiving its e-mail. */
export const startTestServer = async (options: TestServerOptions = {}): Promise<TestServer> => {
    const smtp = await startSmtpSink();
    const testStore = options.testStore ?? (await createTestStore());
    const config = loadConfig(
        { FLOWCTL_DATA_DIR: testStore.dataDir, PORT: '0', ...(testStore.databaseUrl ? { DATABASE_URL: testStore.databaseUrl } : {}) },
        { smtpUrl: smtp.url, mailFrom: 'flowctl <no-reply@flowctl.test>', ...options.config }
    );
    const app = await createApp(config, { logger: options.logger ?? Pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), validateResponses: true });
    await app.start();
    // A worker-only process serves no HTTP: it has no document, and no responses to check.
    const contract = app.server ? createContract(JSON.parse((await app.server.inject('/openapi.json')).payload)) : null;

    return {
        app,
        url: app.url!,
        smtp,
        config,
        testStore,
        contract,
        async request(injectOptions) {
            const res = await app.server!.inject(injectOptions);
            const { method = 'GET', url } = typeof injectOptions === 'string' ? { url: injectOptions } : injectOptions;
            contract?.check({ method, url: String(url), status: res.statusCode, headers: res.headers, body: res.payload });
            let json: unknown;
            try {
                json = res.payload ? JSON.parse(res.payload) : undefined;
            } catch {
                json = undefined;
            }

            return Object.assign(res, { json });
        },
        async close() {
            await app.stop();
            await smtp.close();
            if (!options.testStore) {
                await testStore.drop();
            }
        }
    };
};
