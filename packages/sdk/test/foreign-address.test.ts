// The client only ever sends requests, and so its sign-in, to its own base URL: a server's next-page
// `Link` or redirect to another host (or outside the base path) is refused, not followed.
import Http from 'node:http';
import type { AddressInfo } from 'node:net';

import { fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { Flowctl, ForeignAddressError } from '../src/index.js';

interface Seen {
    method: string;
    url: string;
    authorization: string | undefined;
}

interface Listener {
    origin: string;
    seen: Seen[];
    answer: (req: Http.IncomingMessage, res: Http.ServerResponse) => void;
    close: () => Promise<void>;
}

const listen = async (host = '127.0.0.1'): Promise<Listener> => {
    const listener = {
        seen: [] as Seen[],
        answer: (_req: Http.IncomingMessage, res: Http.ServerResponse) => {
            res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
        }
    } as Listener;
    const server = Http.createServer((req, res) => {
        listener.seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
        req.resume();
        listener.answer(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    listener.origin = `http://${host}:${(server.address() as AddressInfo).port}`;
    listener.close = () =>
        new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
        });
    return listener;
};

const TOKEN = 'flc_SECRET';

describe('server-given addresses outside the base URL', () => {
    let api: Listener;
    let elsewhere: Listener;
    const clients: Flowctl[] = [];
    const client = (basePath = '', options: { fetch?: typeof undiciFetch } = {}) => {
        const made = new Flowctl({ baseUrl: `${api.origin}${basePath}`, apiToken: TOKEN, maxRetries: 0, ...(options.fetch ? { fetch: options.fetch as never } : {}) });
        clients.push(made);
        return made;
    };
    // A first page with one workflow whose Link points wherever `next` says, then a last page.
    const firstPageLinkingTo = (next: (elsewhere: string) => string) => {
        api.answer = (_req, res) => {
            const first = api.seen.length === 1;
            res.writeHead(200, { 'content-type': 'application/json', ...(first ? { link: `<${next(elsewhere.origin)}>; rel="next"` } : {}) });
            res.end(JSON.stringify(first ? [{ id: 'wf_1', name: 'one' }] : [{ id: 'wf_2', name: 'two' }]));
        };
    };

    beforeAll(async () => {
        api = await listen();
        elsewhere = await listen('127.0.0.2');
    });

    afterEach(async () => {
        await Promise.all(clients.splice(0).map((c) => c.close()));
        api.seen.length = 0;
        elsewhere.seen.length = 0;
    });

    afterAll(async () => {
        await api?.close();
        await elsewhere?.close();
    });

    it.each([
        ['an absolute link to another host', (other: string) => `${other}/steal?x=1`],
        ['a scheme-relative link to another host (///host)', (other: string) => `///${other.slice('http://'.length)}/steal`],
        ['a backslash link to another host (/\\\\host)', (other: string) => `/\\\\${other.slice('http://'.length)}/steal`],
        ['a link to another port of the same host', (other: string) => `${other.replace('127.0.0.2', '127.0.0.1')}/steal`],
        ['a link to another scheme', () => `https://${api.origin.slice('http://'.length)}/api/workflows?cursor=2`]
    ])('a next-page Link that is %s is refused with ForeignAddressError; nothing is sent there', async (_what, next) => {
        firstPageLinkingTo(next);
        const err = await client().workflows.list().toArray().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ForeignAddressError);
        expect((err as Error).message).toMatch(/^The server's next-page link pointed at another host \(http\S*\) instead of http:\/\/127\.0\.0\.1:\d+: not followed/);
        expect(elsewhere.seen).toEqual([]);
        expect(api.seen.map((s) => s.url)).toEqual(['/api/workflows']);
    });

    it('the CLI tester\'s case: firstPage() rejects too, and the token never reaches the other host', async () => {
        firstPageLinkingTo((other) => `${other}/steal?x=1`);
        await expect(client().runs.list('wf_aaaaaaaaaaaaaaaaaaaa').firstPage()).rejects.toThrow(ForeignAddressError);
        expect(elsewhere.seen).toEqual([]);
        expect(api.seen).toEqual([{ method: 'GET', url: '/api/workflows/wf_aaaaaaaaaaaaaaaaaaaa/runs', authorization: `Bearer ${TOKEN}` }]);
    });

    it('a next-page Link that climbs out of the base path (../) is refused, on the same host', async () => {
        firstPageLinkingTo(() => '/../steal?cursor=2');
        const err = await client('/flowctl').workflows.list().toArray().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ForeignAddressError);
        expect((err as Error).message).toMatch(/pointed at a path outside the API's address http:\/\/127\.0\.0\.1:\d+\/flowctl\//);
        expect(api.seen.map((s) => s.url)).toEqual(['/flowctl/api/workflows']);
    });

    it('a relative next-page Link (what the server sends) is followed under the base path, with the token', async () => {
        firstPageLinkingTo(() => '/api/workflows?cursor=2');
        const all = await client('/flowctl').workflows.list().toArray();
        expect(all.map((w) => w.id)).toEqual(['wf_1', 'wf_2']);
        expect(api.seen).toEqual([
            { method: 'GET', url: '/flowctl/api/workflows', authorization: `Bearer ${TOKEN}` },
            { method: 'GET', url: '/flowctl/api/workflows?cursor=2', authorization: `Bearer ${TOKEN}` }
        ]);
    });

    it('an absolute next-page Link on the base URL itself is followed', async () => {
        firstPageLinkingTo(() => `${api.origin}/api/workflows?cursor=2`);
        expect((await client().workflows.list().toArray()).map((w) => w.id)).toEqual(['wf_1', 'wf_2']);
        expect(elsewhere.seen).toEqual([]);
    });

    it('a redirect to another host is not followed, even through a custom fetch (which follows by default)', async () => {
        api.answer = (_req, res) => {
            res.writeHead(307, { location: `${elsewhere.origin}/steal` }).end();
        };
        const err = await client('', { fetch: undiciFetch }).workflows.retrieve('wf_1').catch((e: unknown) => e);
        expect(elsewhere.seen).toEqual([]);
        expect(err).toBeInstanceOf(ForeignAddressError);
        expect((err as Error).message).toMatch(/^The server redirected GET \/api\/workflows\/wf_1 to another host \(http:\/\/127\.0\.0\.2:\d+\) instead of http:\/\/127\.0\.0\.1:\d+: not followed/);
    });
});
