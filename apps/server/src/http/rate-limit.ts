import Crypto from 'node:crypto';

import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

import type { Config } from '../config.js';
import type { Context } from '../context.js';
import type { HookOwner } from '../services/hooks.js';
import { hookHash } from '../services/schedules.js';
import { findAccountById } from '../store/accounts.js';
import { rateLimitsStore } from '../store/rate-limits.js';
import { type Consumed, createWindowCounter } from '../services/window-counter.js';
import { HOOK_STRATEGY } from './hook-auth.js';

/**
 * Stricter buckets for the sign-in endpoints, keyed by client address and e-mail address so one
 * network cannot guess a password or a code quickly, while other people signing in are not affected.
 * A route opts in with `options.plugins.rateLimit = { bucket: 'login' }`.
 *
 * A signed-in route that checks the account's password (`password` in its body: creating an API
 * token, setting the password) opts into 'login' too: it is the same oracle, so it counts against the
 * same counter as log-in for the account's address, and guessing there cannot outrun log-in's limit.
 */
export type AuthBucket = 'login' | 'verify-email' | 'otp-mail' | 'refresh' | 'unsubscribe';

declare module '@hapi/hapi' {
    interface PluginSpecificConfiguration {
        rateLimit?: { bucket: AuthBucket };
    }
}

/** What a sign-in counter is keyed by: the client's network, the e-mail address in the body, or both. */
type KeyKind = 'ip' | 'email' | 'ip+email';

interface AuthLimit {
    key: KeyKind;
    points: number;
    /** The counter's window; the configured RATE_LIMIT_WINDOW_SECONDS when unset. */
    seconds?: number;
    what: string;
}

const authLimits = (config: Config['rateLimit']): Record<AuthBucket, AuthLimit[]> => ({
    login: [{ key: 'ip+email', points: 10, what: 'log-in attempts for this e-mail address' }],
    // Each code also dies after five wrong tries; this stops cycling through fresh codes quickly.
    // reset-password uses it too.
    'verify-email': [{ key: 'ip+email', points: 10, what: 'verification attempts for this e-mail address' }],
    // register, resend-otp and forgot-password: each may send an e-mail. Capped per address whoever
    // asks (so nobody can flood an inbox from many networks) and per network whatever the address.
    'otp-mail': [
        { key: 'ip+email', points: 5, what: 'sign-up e-mails for this address' },
        { key: 'email', points: 10, seconds: 60 * 60, what: 'e-mails to this address' },
        { key: 'ip', points: config.mailPerIp, what: 'sign-up and password e-mails requested from your address' }
    ],
    // Refresh tokens cannot be guessed; this only bounds a runaway client.
    refresh: [{ key: 'ip', points: 120, what: 'token refreshes' }],
    // GET and POST /u/{token}: no sign-in, so per client address. A mailbox provider posts one-click
    // unsubscribes for all its users from a few addresses: generous, it only bounds a flood.
    unsubscribe: [{ key: 'ip', points: 600, what: 'unsubscribe requests' }]
});

// Probes and scrapes must never be refused.
export const RATE_LIMIT_EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);

const TABLE = 'rate_limits';

interface Outcome extends Consumed {
    what: string;
}

interface Bucket {
    points: number;
    seconds: number;
    consume(key: string): Promise<Consumed>;
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
    const shared = ctx.config.databaseUrl ? rateLimitsStore(ctx.db) : undefined;

    /**
     * Every request passes the per-address and per-account counters, so they cost no statement of their
     * own: they count in memory and, on PostgreSQL, share their counts with other API processes in
     * batches (see services/window-counter.ts). Embedded, one process owns the database and memory is exact.
     */
    const counter = (keyPrefix: string, points: number): Bucket => {
        const counts = createWindowCounter({ keyPrefix, points, windowMs: windowSeconds * 1000, store: shared, log: ctx.log });
        server.ext('onPostStop', () => counts.flush());
        return { points, seconds: windowSeconds, consume: async (key) => counts.consume(key) };
    };

    /**
     * The sign-in buckets are few requests and guard passwords and codes, so they are exact across
     * processes: rate-limiter-flexible with one upsert each, on the same table; if PostgreSQL fails,
     * each process falls back to counting in memory rather than refusing or waving through everything.
     */
    const limiter = (keyPrefix: string, points: number, duration: number): Bucket => {
        const memory = new RateLimiterMemory({ keyPrefix, points, duration });
        const flexible = ctx.config.databaseUrl
            ? new RateLimiterPostgres({
                  storeClient: ctx.db.pool,
                  storeType: 'pool',
                  tableName: TABLE,
                  tableCreated: true,
                  clearExpiredByTimeout: false,
                  keyPrefix,
                  points,
                  duration,
                  insuranceLimiter: memory
              })
            : memory;
        return {
            points,
            seconds: duration,
            async consume(key) {
                let res: RateLimiterRes;
                let blocked = false;
                try {
                    res = await flexible.consume(key);
                } catch (err) {
                    if (!(err instanceof RateLimiterRes)) {
                        throw err;
                    }

                    res = err;
                    blocked = true;
                }

                return { limit: points, remaining: res.remainingPoints, resetMs: Math.max(res.msBeforeNext, 0), blocked };
            }
        };
    };

    const perIp = counter('ip', ctx.config.rateLimit.perIp);
    const perAccount = counter('acct', ctx.config.rateLimit.perAccount);
    const perHook = counter('hook', ctx.config.rateLimit.perHook);
    const perAuth = Object.fromEntries(
        Object.entries(authLimits(ctx.config.rateLimit)).map(([bucket, limits]) => [
            bucket,
            limits.map((limit) => ({ ...limit, bucket: limiter(`auth-${bucket}-${limit.key}`, limit.points, limit.seconds ?? windowSeconds) }))
        ])
    ) as Record<AuthBucket, (AuthLimit & { bucket: Bucket })[]>;

    // The tightest outcome per request, for the RateLimit-* headers.
    const outcomes = new WeakMap<Hapi.Request, Outcome>();

    const take = async (request: Hapi.Request, bucket: Bucket, key: string, what: string) => {
        let consumed: Consumed;
        try {
            consumed = await bucket.consume(key);
        } catch (err) {
            // Only without an insurance limiter; never turn a counting fault into an outage.
            ctx.log.warn({ err: (err as Error).message }, 'rate limiter unavailable; request let through');
            return;
        }

        const outcome: Outcome = { ...consumed, what };
        const previous = outcomes.get(request);
        if (!previous || (!previous.blocked && (outcome.blocked || outcome.remaining < previous.remaining))) {
            outcomes.set(request, outcome);
        }

        if (outcome.blocked) {
            const seconds = Math.max(1, Math.ceil(outcome.resetMs / 1000));
            const error = Boom.tooManyRequests(`Too many ${what}: at most ${bucket.points} per ${bucket.seconds} s. Retry in ${seconds} s.`);
            error.output.headers['Retry-After'] = String(seconds);
            throw error;
        }
    };

    const exempt = (request: Hapi.Request) => RATE_LIMIT_EXEMPT.has(request.path.replace(/\/+$/, '') || '/');

    server.ext('onRequest', async (request, h) => {
        if (!exempt(request)) {
            await take(request, perIp, clientKey(request.info.remoteAddress), 'requests from your address');
        }

        return h.continue;
    });

    // A hook's holder is not its account's owner: its requests count against the hook alone (keyed by
    // the id's hash, as logs show it), so that whoever has (or leaked) the URL cannot spend the
    // account's API budget and lock it out. Before the hook is looked up and its body read: a flood
    // past the limit costs neither.
    server.ext('onPreAuth', async (request, h) => {
        const hookId = (request.params as { hookId?: unknown }).hookId;
        const strategies = request.route.settings.auth ? request.route.settings.auth.strategies : undefined;
        if (strategies?.includes(HOOK_STRATEGY) && typeof hookId === 'string') {
            await take(request, perHook, hookHash(hookId), 'requests to this hook');
        }

        return h.continue;
    });

    server.ext('onPostAuth', async (request, h) => {
        const hook = (request.auth.credentials?.app as { hook?: HookOwner } | undefined)?.hook;
        const accountId = request.auth.credentials?.user?.accountId;
        if (accountId && !hook && !exempt(request)) {
            await take(request, perAccount, accountId, 'requests for this account');
        }

        return h.continue;
    });

    /**
     * The address a sign-in counter is keyed by: the body's `email`, or, where a signed-in request gives
     * the account's password to check, the account's own address (so it shares log-in's counter).
     */
    const addressOf = async (request: Hapi.Request): Promise<unknown> => {
        const payload = request.payload as { email?: unknown; password?: unknown } | null;
        if (payload?.email !== undefined) {
            return payload.email;
        }

        const accountId = request.auth.credentials?.user?.accountId;
        if (typeof payload?.password === 'string' && accountId) {
            return (await findAccountById(ctx.db, accountId))?.email;
        }

        return undefined;
    };

    // After validation, so the e-mail address is known to be well-formed.
    server.ext('onPreHandler', async (request, h) => {
        const limits = perAuth[request.route.settings.plugins?.rateLimit?.bucket as AuthBucket];
        const email = limits ? await addressOf(request) : undefined;
        // Hashed: the counter table need not hold anyone's address.
        const address = typeof email === 'string' ? Crypto.createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22) : null;
        const ip = clientKey(request.info.remoteAddress);
        for (const { key, bucket, what } of limits ?? []) {
            if (key === 'ip') {
                await take(request, bucket, ip, what);
            } else if (address) {
                await take(request, bucket, key === 'email' ? address : `${ip}|${address}`, what);
            }
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
