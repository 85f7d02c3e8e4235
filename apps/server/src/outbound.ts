import Dns from 'node:dns';
import Net from 'node:net';
import Os from 'node:os';

import { Agent, buildConnector, fetch as undiciFetch } from 'undici';

/**
 * Requests to addresses that accounts choose (run webhooks, an account's AI base URL) may not reach
 * this machine (by any of its addresses), its private networks or other ranges that are not globally
 * reachable unless ALLOW_PRIVATE_NETWORK is set: otherwise any account could make the server call
 * internal services or a cloud metadata endpoint on its behalf.
 * Names are checked as they are resolved, at connect time, so a name that later resolves elsewhere
 * (DNS rebinding) is caught too.
 */

// Not globally reachable, after IANA's special-purpose address registries (checked 2026-11), plus
// multicast and the deprecated IPv6 site-local range. A few anycast services inside these blocks
// (192.0.0.9-10, 2001:1::1-3, AMT, AS112, ORCHIDv2) are refused with them: no webhook or model runs there.
const PRIVATE = new Net.BlockList();
for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    // Documentation (TEST-NET-1/2/3): a host may still be given one, as a test or lab network.
    ['192.0.2.0', 24],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    // Deprecated 6to4 relay anycast: whichever relay is nearest, not a chosen host.
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    // Multicast (224/4), reserved (240/4) and limited broadcast.
    ['224.0.0.0', 3]
] as const) {
    PRIVATE.addSubnet(network, prefix, 'ipv4');
}

for (const [network, prefix] of [
    ['::', 127],
    // Local-use NAT64 (RFC 8215): translated into whatever networks its operator chose.
    ['64:ff9b:1::', 48],
    // Discard-only, and the dummy prefix (RFC 9780).
    ['100::', 64],
    ['100:0:0:1::', 64],
    // Documentation.
    ['2001:db8::', 32],
    ['3fff::', 20],
    // Segment Routing SIDs.
    ['5f00::', 16],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8]
] as const) {
    PRIVATE.addSubnet(network, prefix, 'ipv6');
}

// IETF protocol assignments (2001::/23, benchmarking 2001:2::/48 among them), but for Teredo
// (2001::/32): a Teredo address is decided by the IPv4 addresses it carries (embeddedIPv4).
PRIVATE.addRange('2001:1::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'ipv6');

/**
 * The addresses of this host's interfaces, whatever their range (a host may sit on a public or a
 * documentation network, as eth0 192.0.2.2 did): any of them reaches this machine's services. Read
 * at each check, so an address added since the server started counts.
 */
const localAddresses = (): Net.BlockList => {
    const local = new Net.BlockList();
    for (const entries of Object.values(Os.networkInterfaces())) {
        for (const entry of entries ?? []) {
            const address = entry.address.replace(/%.*$/, '');
            local.addAddress(address, Net.isIPv4(address) ? 'ipv4' : 'ipv6');
        }
    }

    return local;
};

export const ALLOW_HINT = 'set ALLOW_PRIVATE_NETWORK=true on the server to allow it';

/** The eight 16-bit groups of an IPv6 address (zone index dropped), or null when it is not one. */
const ipv6Groups = (address: string): number[] | null => {
    const plain = address.replace(/%.*$/, '');
    if (!Net.isIPv6(plain)) {
        return null;
    }

    // A trailing dotted quad is two groups.
    const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(plain);
    const hex = dotted ? plain.slice(0, dotted.index) + ((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16) + ':' + ((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16) : plain;
    const [head, tail] = hex.includes('::') ? hex.split('::') : [hex, null];
    const parse = (part: string | null | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
    const front = parse(head);
    const back = parse(tail);
    return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
};

const ipv4Of = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 addresses an IPv6 address carries, that a packet to it may end up at: IPv4-compatible
 * (::a.b.c.d), -mapped (::ffff:a.b.c.d), -translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002:AABB:CCDD::/48) and Teredo (2001:0::/32: its server, and its
 * client inverted in the last 32 bits).
 */
export const embeddedIPv4 = (address: string): string[] => {
    const g = ipv6Groups(address);
    if (!g) {
        return [];
    }

    const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
    const last = ipv4Of(g[6]!, g[7]!);
    if (zeros(0, 5) && (g[5] === 0 || g[5] === 0xffff)) {
        return [last];
    }

    if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) {
        return [last];
    }

    if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) {
        return [last];
    }

    if (g[0] === 0x2002) {
        return [ipv4Of(g[1]!, g[2]!)];
    }

    if (g[0] === 0x2001 && g[1] === 0) {
        return [ipv4Of(g[2]!, g[3]!), ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)];
    }

    return [];
};

export const isPrivateAddress = (address: string): boolean => {
    const local = localAddresses();
    const refused = (ipv4: string) => PRIVATE.check(ipv4, 'ipv4') || local.check(ipv4, 'ipv4');
    if (Net.isIPv4(address)) {
        return refused(address);
    }

    const plain = address.replace(/%.*$/, '');
    if (!Net.isIPv6(plain)) {
        return false;
    }

    // Checked as itself and as every IPv4 address it leads to: a NAT64 or 6to4 gateway would deliver it there.
    return PRIVATE.check(plain, 'ipv6') || local.check(plain, 'ipv6') || embeddedIPv4(plain).some(refused);
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
 * no lookup sees. A redirect (webhook fetches follow them; AI calls do not) to http://127.0.0.1/ is caught here.
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
