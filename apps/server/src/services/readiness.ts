import Crypto from 'node:crypto';
import Fs from 'node:fs/promises';
import Path from 'node:path';

import type { Context } from '../context.js';
import { storeFailure } from '../store/failures.js';
import { probeWrite } from '../store/readiness.js';

/** /readyz answers within this long, whatever the store does (a frozen one never answers). */
const READY_TIMEOUT_MS = 3_000;

const within = <T>(work: Promise<T>, ms: number, what: string): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
};

/**
 * Whether this process can do its work: the database takes a write, and so does the data
 * directory where it keeps the embedded database, upload bytes (the `files` blob store) or the
 * delivery journal (a worker). Null when
 * ready, else what is wrong, for the 503's message.
 */
export const readiness = async (ctx: Context): Promise<string | null> => {
    try {
        await within(probeWrite(ctx.db), READY_TIMEOUT_MS, 'the database');
    } catch (err) {
        return storeFailure(err) === 'full' ? 'The database cannot write: its disk is full' : 'The database does not answer, or cannot write';
    }

    // An API process keeping upload bytes in PostgreSQL writes nothing there.
    const { config } = ctx;
    if (config.databaseUrl && config.blobStore === 'postgres' && config.role === 'api') {
        return null;
    }

    const probe = Path.join(ctx.config.dataDir, `.ready-${Crypto.randomBytes(4).toString('hex')}`);
    try {
        await within(Fs.writeFile(probe, 'ready\n'), READY_TIMEOUT_MS, 'the data directory');
    } catch (err) {
        return storeFailure(err) === 'full' ? `The data directory ${ctx.config.dataDir} is full` : `The data directory ${ctx.config.dataDir} cannot be written`;
    } finally {
        await Fs.rm(probe, { force: true }).catch(() => {});
    }

    return null;
};
