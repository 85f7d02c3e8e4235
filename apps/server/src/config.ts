import Path from 'node:path';

export type Role = 'api' | 'worker' | 'all';

export interface GoogleConfig {
    clientId: string | null;
    clientSecret: string | null;
    redirectUri: string | null;
    /** Google's endpoints; other values are meant for tests and proxies (a local stand-in). */
    authUrl: string;
    tokenUrl: string;
    revokeUrl: string;
    /** Root of the Drive, Sheets and userinfo APIs; null: each API's own. */
    apiUrl: string | null;
}
export type BlobStoreKind = 'files' | 'postgres';

export interface SmtpSettings {
    /** Connections to the SMTP server at most, shared by all runs; also how many e-mails a run has in flight. */
    connections: number;
    /** How long opening a connection (or a command's reply) may take before it is given up as a temporary failure. */
    sendTimeoutMs: number;
    /** How long the reply to the end of a message's data may take (RFC 5321 §4.5.3.2.6: 10 minutes). */
    dataTimeoutMs: number;
    /** Temporary failures (4xx replies, connection errors) of a run's e-mail are retried: at most this many attempts, */
    retryAttempts: number;
    /** within this long from the first attempt, */
    retryForMs: number;
    /** waiting this long before the second attempt and twice as long before each next one (at most 30 s). */
    retryDelayMs: number;
    /** The name given in EHLO (SMTP_HELO_NAME); null: the MAIL_FROM domain, else the host's FQDN (mail/helo.ts). */
    heloName?: string | null;
}

export interface Config {
    port: number;
    host: string;
    role: Role;
    dataDir: string;
    /** Unset: embedded PGlite under `${dataDir}/pg`. */
    databaseUrl: string | null;
    /** Unset: e-mails are written to `${dataDir}/outbox` as .eml files. */
    smtpUrl: string | null;
    mailFrom: string;
    smtp: SmtpSettings;
    ai: { apiKey: string | null; baseUrl: string | null; model: string | null };
    /** Language-model calls in flight per AI node at most (an account may ask for fewer). */
    aiConcurrency: number;
    /** How long one model call may keep being answered 429/503 (slowing its node down) before the node fails. */
    aiRetryBudgetMs: number;
    /** Given, or generated once and kept in the data directory. */
    jwtSecret: string | null;
    encryptionKey: string | null;
    google: GoogleConfig;
    maxUploadBytes: number;
    /**
     * Largest body POST /api/hooks/{hookId} takes; never more than maxUploadBytes. Smaller than an
     * upload by default: the hook URL alone lets anyone who holds it send this much, unsigned-in.
     */
    maxHookBytes: number;
    /** How long a request body may stop arriving before the request is answered 408. */
    bodyTimeoutSeconds: number;
    /** How long a whole request (headers and body) may take to arrive before it is answered 408 and its connection closed. */
    requestTimeoutSeconds: number;
    /** Open connections one client address may have at once; more are answered 429 and closed. */
    maxConnectionsPerClient: number;
    /** Where upload bytes live: files under `${dataDir}/uploads`, or chunks in PostgreSQL (shared by several machines). */
    blobStore: BlobStoreKind;
    /**
     * The store: opening a connection, and one statement, taking longer than these fails it (the
     * request is answered 503), instead of hanging with a frozen or unreachable database.
     */
    databaseConnectTimeoutMs: number;
    databaseStatementTimeoutMs: number;
    runConcurrency: number;
    /** A run estimated to need more memory than this (MB) fails before it loads anything. */
    runMemoryMb: number;
    /**
     * Webhook deliveries under way at once in a process (see worker/webhook-slots.ts). Each waits on
     * the network, costing a socket rather than CPU, so there are many: one account holds at most
     * WEBHOOK_SLOTS_PER_ACCOUNT of them, and many accounts are needed to fill them.
     */
    webhookConcurrency: number;
    /** How long a worker's claim on a workflow lasts unrenewed: a crashed worker's runs resume after about this long. */
    runLeaseMs: number;
    /** A run whose worker holds its lease but makes no progress for this long is failed. */
    runNoProgressMs: number;
    /** Finished runs, with their node states and delivery records, are deleted this many days after they ended. */
    runRetentionDays: number;
    /** Schedules: the most recent tick missed while no worker ran still runs if at most this old; a schedule may fire at most once per `minIntervalSeconds`. */
    schedule: { catchUpSeconds: number; minIntervalSeconds: number };
    logLevel: string;
    /** `mailPerIp`: sign-up, resend and password-reset requests (each may send an e-mail) per client network and window. */
    /** `perHook`: requests to one hook URL per window, counted apart from its account's `perAccount`. */
    rateLimit: { perAccount: number; perIp: number; perHook: number; windowSeconds: number; mailPerIp: number };
    /** Public address of this server, used in links (OAuth redirect, Link headers are relative). */
    publicUrl: string | null;
    /** Whether webhooks and accounts' AI base URLs may reach loopback and private addresses (see outbound.ts). */
    allowPrivateNetwork: boolean;
    /**
     * Asynchronous bounces (see mail/bounces/): with a port, the server receives bounce and complaint
     * reports by SMTP there; with either set, e-mails go out with a VERP envelope sender built on
     * `address` (BOUNCE_ADDRESS, default MAIL_FROM's address).
     */
    bounce: { smtpPort: number | null; smtpHost: string; address: string | null };
}

const flag = (name: string, raw: string | undefined): boolean => {
    if (raw === undefined || raw === '' || /^(false|0|no)$/i.test(raw)) {
        return false;
    }

    if (/^(true|1|yes)$/i.test(raw)) {
        return true;
    }

    throw new Error(`${name} must be true or false, got '${raw}'`);
};

const positiveInt = (name: string, raw: string | undefined, fallback: number): number => {
    if (raw === undefined || raw === '') {
        return fallback;
    }

    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value <= 0) {
        throw new Error(`${name} must be a positive integer, got '${raw}'`);
    }

    return value;
};

const optional = (raw: string | undefined): string | null => (raw === undefined || raw === '' ? null : raw);

const blobStoreKind = (raw: string | undefined, databaseUrl: string | null): BlobStoreKind => {
    const kind = raw || 'files';
    if (kind !== 'files' && kind !== 'postgres') {
        throw new Error(`BLOB_STORE must be 'files' or 'postgres', got '${raw}'`);
    }

    // The embedded database is one process's: chunks in it would gain nothing over files and cost a lot.
    if (kind === 'postgres' && !databaseUrl) {
        throw new Error('BLOB_STORE=postgres needs DATABASE_URL: with the embedded database, uploads are kept as files');
    }

    return kind;
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config => {
    const config: Config = {
        port: env.PORT === '0' ? 0 : positiveInt('PORT', env.PORT, 3000),
        host: env.HOST || '127.0.0.1',
        role: 'all',
        dataDir: Path.resolve(env.FLOWCTL_DATA_DIR || '.flowctl'),
        databaseUrl: optional(env.DATABASE_URL),
        smtpUrl: optional(env.SMTP_URL),
        mailFrom: env.MAIL_FROM || 'flowctl <no-reply@localhost>',
        smtp: {
            connections: positiveInt('SMTP_CONNECTIONS', env.SMTP_CONNECTIONS, 8),
            // RFC 5321 §4.5.3.2: 5 minutes for the greeting and each command's reply, 10 for the reply to
            // the end of the data. Giving up earlier sends again a message the server was still accepting.
            sendTimeoutMs: positiveInt('SMTP_SEND_TIMEOUT_MS', env.SMTP_SEND_TIMEOUT_MS, 300_000),
            dataTimeoutMs: positiveInt('SMTP_DATA_TIMEOUT_MS', env.SMTP_DATA_TIMEOUT_MS, 600_000),
            retryAttempts: positiveInt('SMTP_RETRY_ATTEMPTS', env.SMTP_RETRY_ATTEMPTS, 10),
            retryForMs: positiveInt('SMTP_RETRY_FOR_MS', env.SMTP_RETRY_FOR_MS, 120_000),
            retryDelayMs: positiveInt('SMTP_RETRY_DELAY_MS', env.SMTP_RETRY_DELAY_MS, 1000),
            heloName: optional(env.SMTP_HELO_NAME)
        },
        ai: { apiKey: optional(env.OPENAI_API_KEY), baseUrl: optional(env.OPENAI_BASE_URL), model: optional(env.AI_MODEL) },
        aiConcurrency: positiveInt('AI_CONCURRENCY', env.AI_CONCURRENCY, 8),
        aiRetryBudgetMs: positiveInt('AI_RETRY_BUDGET_MS', env.AI_RETRY_BUDGET_MS, 600_000),
        jwtSecret: optional(env.JWT_SECRET),
        encryptionKey: optional(env.ENCRYPTION_KEY),
        google: {
            clientId: optional(env.GOOGLE_CLIENT_ID),
            clientSecret: optional(env.GOOGLE_CLIENT_SECRET),
            redirectUri: optional(env.GOOGLE_REDIRECT_URI),
            authUrl: env.GOOGLE_AUTH_URL || 'https://accounts.google.com/o/oauth2/v2/auth',
            tokenUrl: env.GOOGLE_TOKEN_URL || 'https://oauth2.googleapis.com/token',
            revokeUrl: env.GOOGLE_REVOKE_URL || 'https://oauth2.googleapis.com/revoke',
            apiUrl: optional(env.GOOGLE_API_URL)
        },
        maxUploadBytes: positiveInt('MAX_UPLOAD_BYTES', env.MAX_UPLOAD_BYTES, 50 * 1024 * 1024),
        maxHookBytes: positiveInt('MAX_HOOK_BYTES', env.MAX_HOOK_BYTES, 10 * 1024 * 1024),
        bodyTimeoutSeconds: positiveInt('BODY_TIMEOUT_SECONDS', env.BODY_TIMEOUT_SECONDS, 10),
        requestTimeoutSeconds: positiveInt('REQUEST_TIMEOUT_SECONDS', env.REQUEST_TIMEOUT_SECONDS, 120),
        maxConnectionsPerClient: positiveInt('MAX_CONNECTIONS_PER_CLIENT', env.MAX_CONNECTIONS_PER_CLIENT, 100),
        blobStore: blobStoreKind(env.BLOB_STORE, optional(env.DATABASE_URL)),
        databaseConnectTimeoutMs: positiveInt('DATABASE_CONNECT_TIMEOUT_MS', env.DATABASE_CONNECT_TIMEOUT_MS, 5_000),
        databaseStatementTimeoutMs: positiveInt('DATABASE_STATEMENT_TIMEOUT_MS', env.DATABASE_STATEMENT_TIMEOUT_MS, 30_000),
        runConcurrency: positiveInt('RUN_CONCURRENCY', env.RUN_CONCURRENCY, 4),
        runMemoryMb: positiveInt('RUN_MEMORY_MB', env.RUN_MEMORY_MB, 256),
        webhookConcurrency: positiveInt('WEBHOOK_CONCURRENCY', env.WEBHOOK_CONCURRENCY, 32),
        // Renewed every third of it: a dead worker's run is taken over within about this long.
        runLeaseMs: positiveInt('RUN_LEASE_MS', env.RUN_LEASE_MS, 3_000),
        runNoProgressMs: positiveInt('RUN_NO_PROGRESS_MS', env.RUN_NO_PROGRESS_MS, 1_200_000),
        runRetentionDays: positiveInt('RUN_RETENTION_DAYS', env.RUN_RETENTION_DAYS, 30),
        logLevel: env.LOG_LEVEL || 'info',
        rateLimit: {
            perAccount: positiveInt('RATE_LIMIT_PER_ACCOUNT', env.RATE_LIMIT_PER_ACCOUNT, 1200),
            perIp: positiveInt('RATE_LIMIT_PER_IP', env.RATE_LIMIT_PER_IP, 2400),
            perHook: positiveInt('RATE_LIMIT_PER_HOOK', env.RATE_LIMIT_PER_HOOK, 120),
            windowSeconds: positiveInt('RATE_LIMIT_WINDOW_SECONDS', env.RATE_LIMIT_WINDOW_SECONDS, 60),
            mailPerIp: positiveInt('RATE_LIMIT_MAIL_PER_IP', env.RATE_LIMIT_MAIL_PER_IP, 20)
        },
        publicUrl: optional(env.PUBLIC_URL),
        schedule: {
            catchUpSeconds: positiveInt('SCHEDULE_CATCH_UP_SECONDS', env.SCHEDULE_CATCH_UP_SECONDS, 3600),
            minIntervalSeconds: positiveInt('SCHEDULE_MIN_INTERVAL_SECONDS', env.SCHEDULE_MIN_INTERVAL_SECONDS, 1)
        },
        allowPrivateNetwork: flag('ALLOW_PRIVATE_NETWORK', env.ALLOW_PRIVATE_NETWORK),
        bounce: {
            smtpPort: env.BOUNCE_SMTP_PORT === undefined || env.BOUNCE_SMTP_PORT === '' ? null : env.BOUNCE_SMTP_PORT === '0' ? 0 : positiveInt('BOUNCE_SMTP_PORT', env.BOUNCE_SMTP_PORT, 0),
            smtpHost: env.BOUNCE_SMTP_HOST || env.HOST || '127.0.0.1',
            address: optional(env.BOUNCE_ADDRESS)
        }
    };

    // A send retried for SMTP_RETRY_FOR_MS is progress in the making, not a stall: its last attempt
    // may open a connection (SMTP_SEND_TIMEOUT_MS) and wait for the end of its data (SMTP_DATA_TIMEOUT_MS).
    const longestSend = config.smtp.retryForMs + config.smtp.sendTimeoutMs + config.smtp.dataTimeoutMs;
    if (config.runNoProgressMs <= longestSend) {
        throw new Error(
            `RUN_NO_PROGRESS_MS (${config.runNoProgressMs}) must exceed SMTP_RETRY_FOR_MS + SMTP_SEND_TIMEOUT_MS + SMTP_DATA_TIMEOUT_MS (${longestSend}): a run retrying one e-mail would be failed as stalled`
        );
    }

    return { ...config, ...overrides };
};
