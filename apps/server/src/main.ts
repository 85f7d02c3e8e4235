#!/usr/bin/env node
import { parseArgs } from 'node:util';

import { createApp } from './app.js';
import { loadConfig, type Role } from './config.js';
import { boundHeapGrowth } from './worker/heap.js';

const ROLES: Role[] = ['api', 'worker', 'all'];

const main = async (): Promise<void> => {
    boundHeapGrowth();
    const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
    const role = values.role as Role;
    if (!ROLES.includes(role)) {
        throw new Error(`--role must be one of ${ROLES.join(', ')}, got '${values.role}'`);
    }

    const config = loadConfig(process.env, { role });
    if (role !== 'all' && !config.databaseUrl) {
        throw new Error(`--role ${role} needs DATABASE_URL: the embedded database belongs to one process, so it runs --role all`);
    }

    const app = await createApp(config);
    await app.start();

    let stopping = false;
    const stop = async (signal: string) => {
        if (stopping) {
            return;
        }

        stopping = true;
        app.ctx.log.info({ signal }, 'stopping: draining requests and runs');
        try {
            await app.stop();
            process.exit(0);
        } catch (err) {
            app.ctx.log.error({ err }, 'unclean stop');
            process.exit(1);
        }
    };

    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
};

main().catch((err: Error) => {
    console.error(`flowctl server: ${err.message}`);
    process.exit(1);
});
