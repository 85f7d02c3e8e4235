import type * as Hapi from '@hapi/hapi';
import type { ServerRoute } from '@hapi/hapi';
import Pino, { type Logger } from 'pino';

import type { Config } from './config.js';
import type { Context } from './context.js';
import { makeDataDirPrivate } from './data-dir.js';
import { type DataDirLock, lockDataDir } from './data-dir-lock.js';
import { createMetricsRegistry } from './http/metrics.js';
import { REDACT_PATHS } from './http/redact.js';
import { createHttpServer } from './http/server.js';
import { createMailer } from './mail/mailer.js';
import { accountRoutes } from './routes/accounts.js';
import { googleRoutes } from './routes/google.js';
import { hookRoutes } from './routes/hooks.js';
import { metricsRoutes } from './routes/metrics.js';
import { openApiRoutes } from './routes/openapi.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { previewRoutes } from './routes/preview.js';
import { revisionRoutes } from './routes/revisions.js';
import { recentRunRoutes } from './routes/recent-runs.js';
import { runRoutes } from './routes/runs.js';
import { settingsRoutes } from './routes/settings.js';
import { suppressionRoutes } from './routes/suppressions.js';
import { systemRoutes } from './routes/system.js';
import { tokenRoutes } from './routes/tokens.js';
import { unsubscribeRoutes } from './routes/unsubscribe.js';
import { uploadRoutes } from './routes/uploads.js';
import { workflowRoutes } from './routes/workflows.js';
import { loadSecrets } from './secrets.js';
import { type BounceReceiver, startBounceReceiver } from './mail/bounces/receiver.js';
import { createServices, type Services } from './services/index.js';
import { publicBase } from './services/suppressions.js';
import { createBlobStore } from './store/blobs.js';
import { type Connect, createDb, createPool } from './store/db.js';
import { EMBEDDED_CONNECTIONS, type EmbeddedPostgres, startEmbedded } from './store/embedded.js';
import { migrate } from './store/migrate.js';
import { createRunChanges } from './store/run-changes.js';
import { runDeps } from './services/run-deps.js';
import { createWorker, type Worker } from './worker/index.js';
import { createRunQueue } from './queue/run-queue.js';
import { SessionCache } from './services/session-cache.js';

/** Every route the API serves; each area keeps its schemas beside its routes in src/routes/. */
const routeTable = (ctx: Context, services: Services): ServerRoute[] => [
    ...systemRoutes(ctx),
    ...metricsRoutes(ctx),
    ...openApiRoutes(ctx),
    ...accountRoutes(services),
    ...settingsRoutes(services),
    ...tokenRoutes(services),
    ...uploadRoutes(ctx, services),
    ...workflowRoutes(services),
    ...revisionRoutes(services),
    ...runRoutes(services),
    ...recentRunRoutes(services),
    ...deliveryRoutes(services),
    ...previewRoutes(services),
    ...googleRoutes(services),
    ...hookRoutes(ctx, services),
    ...suppressionRoutes(services),
    ...unsubscribeRoutes(services)
];

export interface AppOptions {
    logger?: Logger;
    validateResponses?: boolean;
    /**
     * The embedded database's lock was removed or replaced while the server ran (see data-dir-lock.ts):
     * the app stops, then this is called (main.ts exits with an error).
     */
    onLockLost?: () => void;
}

export interface App {
    ctx: Context;
    services: Services;
    /** Null when the process only works runs (`--role worker`). */
    server: Hapi.Server | null;
    /** Base URL of the HTTP server once started, e.g. http://127.0.0.1:3000. */
    url: string | null;
    /** The bounce receiver's port once started (BOUNCE_SMTP_PORT), else null. */
    bouncePort: number | null;
    start(): Promise<void>;
    stop(): Promise<void>;
}

/** Opens the store, applies migrations and wires every part. Nothing listens until start(). */
export const createApp = async (config: Config, options: AppOptions = {}): Promise<App> => {
    const log = options.logger ?? Pino({ level: config.logLevel, redact: REDACT_PATHS });

    // Before anything is written to the data directory: the database, outbox, uploads and secrets are private.
    await makeDataDirPrivate(config.dataDir);

    let embedded: EmbeddedPostgres | null = null;
    let lock: DataDirLock | null = null;
    let connect: Connect | null = config.databaseUrl;
    if (!connect) {
        lock = await lockDataDir(config.dataDir);
        try {
            embedded = await startEmbedded(config.dataDir);
        } catch (err) {
            await lock.release();
            throw err;
        }

        connect = embedded.connect;
    }

    const pool = createPool(connect, embedded ? EMBEDDED_CONNECTIONS : 10, {
        sharedSession: embedded !== null,
        connectTimeoutMs: config.databaseConnectTimeoutMs,
        statementTimeoutMs: config.databaseStatementTimeoutMs
    });
    const db = createDb(pool);
    const runChanges = createRunChanges({ pool, databaseUrl: config.databaseUrl, log });
    try {
        const applied = await migrate(db);
        if (applied.length > 0) {
            log.info({ applied }, 'database migrated');
        }
    } catch (err) {
        await pool.end();
        await embedded?.stop();
        await lock?.release();
        throw err;
    }

    const ctx: Context = {
        config,
        db,
        log,
        secrets: await loadSecrets(config),
        mailer: createMailer(config, log),
        blobs: createBlobStore(config, db),
        metrics: createMetricsRegistry(),
        queue: createRunQueue({ embedded: embedded !== null, pool, log }),
        runChanges,
        sessions: new SessionCache(config.databaseUrl === null)
    };
    const services = createServices(ctx);
    const server = config.role === 'worker' ? null : await createHttpServer(ctx, services, routeTable(ctx, services), { validateResponses: options.validateResponses ?? false });
    const worker: Worker | null = config.role === 'api' ? null : createWorker(ctx, runDeps(ctx, services));

    let bounces: BounceReceiver | null = null;
    // Housekeeping that needs no one to wait for it; stop() lets it finish before closing the store.
    let housekeeping: Promise<void> = Promise.resolve();

    const app: App = {
        ctx,
        services,
        server,
        url: null,
        bouncePort: null,
        async start() {
            // Real mail with links to where this server listens: recipients cannot open them.
            if (config.smtpUrl && !config.publicUrl) {
                const links = publicBase(config);
                log.warn(
                    { links },
                    `SMTP_URL sends real e-mail but PUBLIC_URL is not set: unsubscribe and hook links point to ${links}, which recipients cannot reach; set PUBLIC_URL to the address they reach this server at`
                );
            }

            // The worker first: in role `all` it connects the channel the API announces runs on.
            await (worker ? worker.start() : ctx.queue.open());
            lock?.watch(() => {
                log.fatal(
                    { dataDir: config.dataDir },
                    'the lock of the embedded database (server.lock) was removed or replaced while this server ran: stopping, so that no other process writes the database at the same time; start the server again'
                );
                void app.stop().finally(() => options.onLockLost?.());
            });
            if (server) {
                await server.start();
                app.url = `http://${config.host}:${server.info.port}`;
                lock?.listening(app.url);
                log.info({ url: app.url, role: config.role, store: embedded ? 'embedded' : 'postgres' }, 'flowctl server listening');
            }

            // Beside the API (not in a worker-only process): reports change the suppression list only.
            if (server && config.bounce.smtpPort !== null) {
                bounces = await startBounceReceiver(config, ctx.secrets.encryptionKey, services.suppressions, log);
                app.bouncePort = bounces.port;
            }

            housekeeping = services.uploads.sweepOrphanBlobs().then(
                (removed) => {
                    if (removed > 0) {
                        log.info({ removed }, 'removed upload bytes that no upload owned');
                    }
                },
                (err: Error) => log.warn({ err: err.message }, 'could not look for upload bytes that no upload owns')
            );
        },
        async stop() {
            // No e-mail starts once the stop has begun, however long the requests under way take.
            worker?.quiesce();
            // Requests waiting for a run to change answer now; other in-flight ones get up to 10 s.
            await ctx.runChanges.close();
            await server?.stop({ timeout: 10_000 });
            await bounces?.close();
            await (worker ? worker.stop() : ctx.queue.close());
            await housekeeping;
            ctx.mailer.close();
            await pool.end();
            await embedded?.stop();
            await lock?.release();
        }
    };

    return app;
};
