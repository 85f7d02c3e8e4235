#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=16
// The flag: Node 24's V8 lets its young generation grow to 128 MB (Node 20: 32 MB), RSS the server
// never needed (bench/big-runs' realistic run: 515 MB peak without the flag, 424 MB with it). It only
// takes effect on the command line, so `npm start`, this shebang and the benchmarks pass it; `node
// dist/main.js` alone runs without it. MALLOC_ARENA_MAX likewise, read as the process starts: with the
// embedded database in a thread of its own, glibc gave that thread its own malloc arena, and the
// server's peak RSS in bench/suppressions.mjs went from 547-552 MB to 581-621; with two arenas, 559.
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

    const app = await createApp(config, { onLockLost: () => process.exit(1) });
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

main().catch((err: unknown) => {
    // Not every library throws an Error (PGlite's file system errors are plain objects).
    const message = err instanceof Error ? err.message : (err as { message?: unknown })?.message;
    console.error(`flowctl server: ${typeof message === 'string' ? message : JSON.stringify(err) ?? String(err)}`);
    process.exit(1);
});
