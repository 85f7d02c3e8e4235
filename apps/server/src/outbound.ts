import Dns from 'node:dns';
import Net from 'node:net';

import { Agent, buildConnector, fetch as undiciFetch } from 'undici';

/**
 * Requests to addresses that accounts choose (run webhooks, an account's AI base URL) may not reach
 * this machine or its private networks unless ALLOW_PRIVATE_NETWORK is set: otherwise any account
 * could make the server call internal services or a cloud metadata endpoint on its behalf.
 * Names are checked as they are resolved, at connect time, so a name that later resolves elsewhere
 * (DNS rebinding) is caught too.
 */

const PRIVATE = new Net.BlockList();
for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3]
] as const) {
    PRIVATE.addSubnet(network, prefix, 'ipv4');
}

for (const [network, prefix] of [
    ['::', 127],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8]
] as const) {
    PRIVATE.addSubnet(network, prefix, 'ipv6');
}

export const ALLOW_HINT = 'set ALLOW_PRIVATE_NETWORK=true on the server to allow it';

export const isPrivateAddress = (address: string): boolean => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped || Net.isIPv4(address)) {
        return PRIVATE.check(mapped ?? address, 'ipv4');
    }

    return Net.isIPv6(address) && PRIVATE.check(address, 'ipv6');
};

export class PrivateAddressError extends Error {
    readonly code = 'EPRIVATEADDRESS';

    constructor(host: string, address: string) {
        super(`${host} is a private or local address (${address}); ${ALLOW_HINT}`);
    }
}

/** The literal address of a URL's host, if it is one. */
const literalAddress = (url: URL): string | null => {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return Net.isIP(host) ? host : null;
};

/**
 * Why an account may not save `raw` as a target, when its host is a private address literal; null
 * otherwise. Names are checked only when they are resolved, at each request.
 */
export const refusedTarget = (raw: string | null | undefined, allowPrivate: boolean): string | null => {
    if (!raw || allowPrivate) {
        return null;
    }

    const url = new URL(raw);
    const address = literalAddress(url);
    return address && isPrivateAddress(address) ? new PrivateAddressError(url.hostname, address).message : null;
};

const publicOnlyLookup: typeof Dns.lookup = ((hostname: string, options: Dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    Dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) {
            callback(err);
            return;
        }

        const refused = addresses.find((entry) => isPrivateAddress(entry.address));
        if (refused) {
            callback(new PrivateAddressError(hostname, refused.address));
        } else if (options.all) {
            callback(null, addresses);
        } else {
            callback(null, addresses[0]!.address, addresses[0]!.family);
        }
    });
}) as typeof Dns.lookup;

const connectByName = buildConnector({ lookup: publicOnlyLookup });

/**
 * Refuses private addresses when connecting: names as they resolve, and literal addresses too, which
 * no lookup sees. A redirect (the AI client follows them) to http://127.0.0.1/ is caught here.
 */
export const publicOnly = new Agent({
    connect: (options, callback) => {
        const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
        if (Net.isIP(host) && isPrivateAddress(host)) {
            callback(new PrivateAddressError(options.hostname, host), null);
            return;
        }

        connectByName(options, callback);
    }
});

/** `url` without its `user:password@`: what may be shown back to an account. */
export const withoutCredentials = (raw: string): string => {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return url.toString();
};

/** fetch() refuses a URL with credentials: they go in a Basic Authorization header instead. */
export const splitCredentials = (raw: string): { url: string; authorization: string | null } => {
    const url = new URL(raw);
    if (!url.username && !url.password) {
        return { url: raw, authorization: null };
    }

    const basic = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
    return { url: withoutCredentials(raw), authorization: `Basic ${basic}` };
};

/**
 * fetch() for account-chosen addresses. With `allowPrivate` it is plain fetch; otherwise it refuses
 * private and local targets with a PrivateAddressError (as the `cause` of fetch's TypeError when the
 * name resolved to one).
 */
export const outboundFetch = (allowPrivate: boolean): typeof fetch => {
    if (allowPrivate) {
        return fetch;
    }

    return (async (input: string | URL, init?: RequestInit) => {
        const url = new URL(input);
        const address = literalAddress(url);
        if (address && isPrivateAddress(address)) {
            throw new PrivateAddressError(url.hostname, address);
        }

        return undiciFetch(url, { ...(init as object), dispatcher: publicOnly } as Parameters<typeof undiciFetch>[1]);
    }) as typeof fetch;
};

/** The PrivateAddressError behind a failed fetch, if that is why it failed. */
export const privateAddressRefusal = (err: unknown): PrivateAddressError | null => {
    for (let cause = err; cause instanceof Error; cause = cause.cause) {
        if (cause instanceof PrivateAddressError) {
            return cause;
        }
    }

    return null;
};
