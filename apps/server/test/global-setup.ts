import Crypto from 'node:crypto';
import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';

import pg from 'pg';
import Pino from 'pino';
import type { TestProject } from 'vitest/node';

import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

declare module 'vitest' {
    export interface ProvidedContext {
        pgTemplate: string;
        /** The PostgreSQL project's migrated database, which each suite's database is created from. */
        pgTemplateDatabase: string | null;
    }
}

const admin = async <T>(query: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
        return await query(client);
    } finally {
        await client.end();
    }
};

/**
 * initdb and the migrations cost seconds; do them once per test run and let each suite copy the
 * migrated data directory (PGlite) or create its database from a migrated template (PostgreSQL).
 */
export default async function setup(project: TestProject) {
    const root = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-template-'));
    const migrated = async (env: Record<string, string>) => {
        const app = await createApp(loadConfig({ FLOWCTL_DATA_DIR: root, PORT: '0', ...env }, { role: 'worker' }), { logger: Pino({ level: 'silent' }) });
        await app.stop();
    };
    // Some suites copy the PGlite directory on either store (the embedded lock's, say).
    await migrated({});
    project.provide('pgTemplate', Path.join(root, 'pg'));

    let template: string | null = null;
    if (project.config.env?.FLOWCTL_TEST_STORE === 'postgres') {
        template = `flowctl_template_${Crypto.randomBytes(6).toString('hex')}`;
        await admin((client) => client.query(`CREATE DATABASE ${template}`));
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.pathname = `/${template}`;
        await migrated({ DATABASE_URL: url.toString() });
    }
    project.provide('pgTemplateDatabase', template);

    return async () => {
        if (template) {
            await admin((client) => client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
        }

        await Fs.rm(root, { recursive: true, force: true });
    };
}
