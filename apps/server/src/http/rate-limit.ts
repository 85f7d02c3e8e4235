import Crypto from 'node:crypto';

import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

import type { Context } from '../context.js';

/**
 * Stricter buckets for the sign-in endpoints, keyed by client address and e-mail address so one
 * network cannot guess a password or a code quickly, while other people signing in are not affected.
 * A route opts in with `options.plugins.rateLimit = { bucket: 'login' }`.
 */
export type AuthBucket = 'login' | 'verify-email' | 'otp-mail' | 'refresh';

declare module '@hapi/hapi' {
    interface PluginSpecificConfiguration {
        rateLimit?: { bucket: AuthBucket };
    }
}

const AUTH_LIMITS: Record<AuthBucket, { points: number; perEmail: boolean; what: string }> = {
    login: { points: 10, perEmail: true, what: 'log-in attempts for this e-mail address' },
    // Each code also dies after five wrong tries; this stops cycling through fresh codes quickly.
    'verify-email': { points: 10, perEmail: true, what: 'verification attempts for this e-mail address' },
    // register and resend-otp: each sends an e-mail.
    'otp-mail': { points: 5, perEmail: true, what: 'sign-up e-mails for this address' },
    // Refresh tokens cannot be guessed; this only bounds a runaway client.
    refresh: { points: 120, perEmail: false, what: 'token refreshes' }
};

// Probes and scrapes must never be refused.
const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);

const TABLE = 'rate_limits';

interface Outcome {
    limit: number;
    remaining: number;
    resetMs: number;
    blocked: boolean;
    what: string;
}

/**
 * IPv4 as is; IPv6 by its /64, since one host usually holds a whole /64 and could otherwise rotate
 * through addresses.
 */
export const clientKey = (address: string): string => {
    const plain = address.split('%')[0] ?? address;
    if (!plain.includes(':')) {
        return plain;
    }

    if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(plain)) {
        return plain.slice(7);
    }

    const [head = '', tail = ''] = plain.split('::');
    const front = head ? head.split(':') : [];
    const back = plain.includes('::') && tail ? tail.split(':') : [];
    const groups = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
    return `${groups
        .slice(0, 4)
        .map((group) => Number.parseInt(group || '0', 16).toString(16))
        .join(':')}::/64`;
};

export const registerRateLimits = (server: Hapi.Server, ctx: Context): void => {
    const { windowSeconds } = ctx.config.rateLimit;

    /**
     * Embedded: one process owns the database, so counting in memory is exact and costs no statement
     * (the embedded store's statement rate is the API's bottleneck). PostgreSQL: counts live in an
     * UNLOGGED table (migration 003) shared by every API process; if it fails, each process falls
     * back to counting in memory rather than refusing or waving through everything.
     */
    const limiter = (keyPrefix: string, points: number, clearExpired = false): RateLimiterAbstract => {
        const memory = new RateLimiterMemory({ keyPrefix, points, duration: windowSeconds });
        if (!ctx.config.databaseUrl) {
            return memory;
        }

        return new RateLimiterPostgres({
            storeClient: ctx.db.pool,
            storeType: 'pool',
            tableName: TABLE,
            tableCreated: true,
            clearExpiredByTimeout: clearExpired,
            keyPrefix,
            points,
            duration: windowSeconds,
            insuranceLimiter: memory
        });
    };

    const perIp = { limiter: limiter('ip', ctx.config.rateLimit.perIp, true), points: ctx.config.rateLimit.perIp };
    const perAccount = { limiter: limiter('acct', ctx.config.rateLimit.perAccount), points: ctx.config.rateLimit.perAccount };
    const perAuth = Object.fromEntries(
        Object.entries(AUTH_LIMITS).map(([bucket, { points }]) => [bucket, { limiter: limiter(`auth-${bucket}`, points), points }])
    ) as Record<AuthBucket, { limiter: RateLimiterAbstract; points: number }>;

    // The tightest outcome per request, for the RateLimit-* headers.
    const outcomes = new WeakMap<Hapi.Request, Outcome>();

    const take = async (request: Hapi.Request, bucket: { limiter: RateLimiterAbstract; points: number }, key: string, what: string) => {
        let res: RateLimiterRes;
        let blocked = false;
        try {
            res = await bucket.limiter.consume(key);
        } catch (err) {
            if (!(err instanceof RateLimiterRes)) {
                // Only without an insurance limiter; never turn a counting fault into an outage.
                ctx.log.warn({ err: (err as Error).message }, 'rate limiter unavailable; request let through');
                return;
            }

            res = err;
            blocked = true;
        }

        const outcome: Outcome = { limit: bucket.points, remaining: res.remainingPoints, resetMs: Math.max(res.msBeforeNext, 0), blocked, what };
        const previous = outcomes.get(request);
        if (!previous || (!previous.blocked && (blocked || outcome.remaining < previous.remaining))) {
            outcomes.set(request, outcome);
        }

        if (blocked) {
            const seconds = Math.max(1, Math.ceil(outcome.resetMs / 1000));
            const error = Boom.tooManyRequests(`Too many ${what}: at most ${bucket.points} per ${windowSeconds} s. Retry in ${seconds} s.`);
            error.output.headers['Retry-After'] = String(seconds);
            throw error;
        }
    };

    const exempt = (request: Hapi.Request) => EXEMPT.has(request.path.replace(/\/+$/, '') || '/');

    server.ext('onRequest', async (request, h) => {
        if (!exempt(request)) {
            await take(request, perIp, clientKey(request.info.remoteAddress), 'requests from your address');
        }

        return h.continue;
    });

    server.ext('onPostAuth', async (request, h) => {
        const accountId = request.auth.credentials?.user?.accountId;
        if (accountId && !exempt(request)) {
            await take(request, perAccount, accountId, 'requests for this account');
        }

        return h.continue;
    });

    // After validation, so the e-mail address is known to be well-formed.
    server.ext('onPreHandler', async (request, h) => {
        const bucket = request.route.settings.plugins?.rateLimit?.bucket;
        if (bucket) {
            const { perEmail, what } = AUTH_LIMITS[bucket];
            const email = (request.payload as { email?: unknown } | null)?.email;
            let key = clientKey(request.info.remoteAddress);
            if (perEmail && typeof email === 'string') {
                // Hashed: the counter table need not hold anyone's address.
                key += `|${Crypto.createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22)}`;
            }

            await take(request, perAuth[bucket], key, what);
        }

        return h.continue;
    });

    server.ext('onPreResponse', (request, h) => {
        const outcome = outcomes.get(request);
        if (outcome) {
            const headers = {
                'RateLimit-Limit': String(outcome.limit),
                'RateLimit-Remaining': String(outcome.remaining),
                'RateLimit-Reset': String(Math.ceil(outcome.resetMs / 1000))
            };
            const response = request.response;
            if ('isBoom' in response && response.isBoom) {
                Object.assign(response.output.headers, headers);
            } else {
                for (const [name, value] of Object.entries(headers)) {
                    (response as Hapi.ResponseObject).header(name, value);
                }
            }
        }

        return h.continue;
    });
};
