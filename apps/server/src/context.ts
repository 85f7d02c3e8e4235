import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

import type { Config } from './config.js';
import type { Mailer } from './mail/mailer.js';
import type { Secrets } from './secrets.js';
import type { BlobStore } from './store/blobs.js';
import type { Db } from './store/db.js';
import type { SessionCache } from './services/session-cache.js';
import type { RunChanges } from './store/run-changes.js';
import type { RunQueue } from './queue/run-queue.js';

/** What every service is built from. Created once per process by createApp(). */
export interface Context {
    config: Config;
    db: Db;
    secrets: Secrets;
    mailer: Mailer;
    log: Logger;
    /** Upload bytes: files in the data directory, or chunks in PostgreSQL (BLOB_STORE). */
    blobs: BlobStore;
    /** Prometheus metrics of this app (GET /metrics); the run worker adds its own here. */
    metrics: Registry;
    /** Announces run jobs to the workers and reaches runs executing in this process. */
    queue: RunQueue;
    /** Wakes requests waiting for a run to change (GET /api/workflows/runs/{runId} with Prefer: wait). */
    runChanges: RunChanges;
    /** Live sessions remembered by this process (embedded store only; see session-cache.ts). */
    sessions: SessionCache;
}
