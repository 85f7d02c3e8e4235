import Http from 'node:http';
import Os from 'node:os';

import { fetch as undiciFetch } from 'undici';
import { describe, expect, it, vi } from 'vitest';

import { loadConfig } from './config.js';

import { isPrivateAddress, PrivateAddressError, publicOnly, refusedTarget } from './outbound.js';

describe('outbound address policy', () => {
    it('knows loopback, private, link-local, shared and multicast addresses, in both families', () => {
        for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1']) {
            expect(isPrivateAddress(address), address).toBe(true);
        }

        for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
            expect(isPrivateAddress(address), address).toBe(false);
        }
    });

    it('knows the special-purpose ranges that are not globally reachable: documentation, benchmarking, reserved, discard, SRv6, IETF protocol assignments', () => {
        const special = [
            '192.0.2.2',
            '198.51.100.7',
            '203.0.113.200',
            '198.18.0.1',
            '198.19.255.254',
            '240.0.0.1',
            '255.255.255.255',
            '100.127.255.254',
            '192.88.99.1',
            '2001:db8::1',
            '3fff::1',
            '100::1',
            '100:0:0:1::1',
            '2001:2::1',
            '2001:10::1',
            '5f00::1',
            'fec0::1',
            // and as embedded IPv4 addresses.
            '::ffff:192.0.2.2',
            '64:ff9b::c633:6407',
            '2002:cb00:7101::1'
        ];
        for (const address of special) {
            expect(isPrivateAddress(address), address).toBe(true);
            expect(refusedTarget(`http://${address.includes(':') ? `[${address}]` : address}:4010/ext`, false), address).toMatch(/is a private or local address/);
        }

        // Their neighbours are public.
        for (const address of ['192.0.3.1', '198.51.101.1', '203.0.114.1', '198.20.0.1', '2001:db9::1', '2001:200::1', '3fff:1000::1']) {
            expect(isPrivateAddress(address), address).toBe(false);
        }
    });

    it("refuses this host's own addresses, whatever their range, read when checking", () => {
        const own = Object.values(Os.networkInterfaces())
            .flatMap((entries) => entries ?? [])
            .filter((entry) => !entry.internal);
        for (const entry of own) {
            expect(isPrivateAddress(entry.address), entry.address).toBe(true);
        }

        // An address the host gains after start counts from then on, in IPv4-embedding forms too.
        const gained = '81.2.69.160';
        expect(isPrivateAddress(gained)).toBe(false);
        const real = Os.networkInterfaces();
        const spy = vi.spyOn(Os, 'networkInterfaces').mockReturnValue({
            ...real,
            eth9: [{ address: gained, netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:09', internal: false, cidr: `${gained}/24` }]
        });
        try {
            for (const address of [gained, '::ffff:81.2.69.160', '64:ff9b::5102:45a0', '2002:5102:45a0::1']) {
                expect(isPrivateAddress(address), address).toBe(true);
            }

            expect(refusedTarget(`http://${gained}:4010/ext`, false)).toMatch(/is a private or local address/);
        } finally {
            spy.mockRestore();
        }

        expect(isPrivateAddress(gained)).toBe(false);
    });

    it("refuses a connection to one of this host's non-loopback addresses, where a listener waits", async () => {
        const own = Object.values(Os.networkInterfaces())
            .flatMap((entries) => entries ?? [])
            .find((entry) => !entry.internal && entry.family === 'IPv4');
        if (!own) {
            return;
        }

        let reached = false;
        const server = Http.createServer((_req, res) => {
            reached = true;
            res.end('reached');
        });
        await new Promise<void>((resolve) => server.listen(0, own.address, resolve));
        try {
            const url = `http://${own.address}:${(server.address() as { port: number }).port}/ext`;
            const err = await undiciFetch(url, { dispatcher: publicOnly }).catch((e: Error) => e);
            expect((err as Error & { cause?: unknown }).cause).toBeInstanceOf(PrivateAddressError);
            expect(reached).toBe(false);
        } finally {
            await new Promise<void>((resolve) => server.close(() => resolve()));
        }
    });

    it('unwraps IPv4 addresses embedded in IPv6 ones (compatible, mapped, translated, NAT64, 6to4, Teredo) before deciding', () => {
        const embedding = [
            '::127.0.0.1',
            '::7f00:1',
            '::ffff:0:127.0.0.1',
            '::ffff:0:7f00:1',
            '::ffff:127.0.0.1',
            '64:ff9b::127.0.0.1',
            '64:ff9b::a9fe:a9fe',
            '64:ff9b:1::7f00:1',
            '64:ff9b:1:808:808::',
            '2002:7f00:1::1',
            '2002:a00:1:1::5',
            '2002:c0a8:0101::',
            // Teredo: the client's address is the last 32 bits inverted (here 127.0.0.1, then 10.0.0.1).
            '2001:0:4136:e378:8000:63bf:80ff:fffe',
            '2001:0:4136:e378:8000:63bf:f5ff:fffe',
            // and the Teredo server's address the 32 bits after the prefix.
            '2001:0:7f00:1:8000:63bf:f7f7:f7f7'
        ];
        for (const address of embedding) {
            expect(isPrivateAddress(address), address).toBe(true);
            expect(refusedTarget(`http://[${address}]:8080/hook`, false), address).toMatch(/is a private or local address/);
        }

        // A zone index (resolved names can carry one) does not hide the address.
        expect(isPrivateAddress('fe80::1%eth0')).toBe(true);

        for (const address of ['64:ff9b::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '::ffff:0:808:808', '2606:4700::1111']) {
            expect(isPrivateAddress(address), address).toBe(false);
        }
    });

    it('refuses private literals when saved, unless allowed; names wait until they resolve', () => {
        expect(refusedTarget('http://127.0.0.1:3000/x', false)).toBe('127.0.0.1 is a private or local address (127.0.0.1); set ALLOW_PRIVATE_NETWORK=true on the server to allow it');
        expect(refusedTarget('http://[fd00::2]/x', false)).toMatch(/^\[fd00::2\] is a private or local address/);
        expect(refusedTarget('http://127.0.0.1:3000/x', true)).toBeNull();
        expect(refusedTarget('https://hooks.example.test/x', false)).toBeNull();
        expect(refusedTarget(null, false)).toBeNull();
    });

    it('reads ALLOW_PRIVATE_NETWORK as a boolean, off by default', () => {
        expect(loadConfig({}).allowPrivateNetwork).toBe(false);
        expect(loadConfig({ ALLOW_PRIVATE_NETWORK: 'true' }).allowPrivateNetwork).toBe(true);
        expect(loadConfig({ ALLOW_PRIVATE_NETWORK: '0' }).allowPrivateNetwork).toBe(false);
        expect(() => loadConfig({ ALLOW_PRIVATE_NETWORK: 'sometimes' })).toThrow("ALLOW_PRIVATE_NETWORK must be true or false, got 'sometimes'");
    });

    it('refuses an IPv6 literal embedding a private IPv4 address when connecting, before any connection is tried', async () => {
        for (const host of ['[::127.0.0.1]', '[::ffff:0:127.0.0.1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::1]']) {
            const err = await undiciFetch(`http://${host}:8080/`, { dispatcher: publicOnly }).catch((e: Error) => e);
            expect((err as Error & { cause?: unknown }).cause, host).toBeInstanceOf(PrivateAddressError);
        }
    });

    it('refuses a literal private address when connecting, as a redirect would reach it', async () => {
        const server = Http.createServer((_req, res) => res.end('reached'));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
            const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
            const err = await undiciFetch(url, { dispatcher: publicOnly }).catch((e: Error) => e);
            expect((err as Error & { cause?: unknown }).cause).toBeInstanceOf(PrivateAddressError);
        } finally {
            await new Promise<void>((resolve) => server.close(() => resolve()));
        }
    });
});
