import { describe, expect, it } from 'vitest';

import { loadConfig } from './config.js';
import Http from 'node:http';

import { fetch as undiciFetch } from 'undici';

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
