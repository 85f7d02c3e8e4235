import Http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { AiRequest } from '@flowctl/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { complete } from './client.js';
import { AiLimiter } from './limiter.js';

// The call itself against a real HTTP server: what the node error says when the endpoint answers
// something other than the OpenAI error shape, or cannot be reached (the run tests cover the rest).

const request: AiRequest = {
    nodeId: 'writer',
    index: null,
    prompt: 'Write',
    output: [{ name: 'line', type: 'string' }],
    schema: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'], additionalProperties: false }
};

const options = () => ({ limiter: new AiLimiter(1), retryBudgetMs: 1_000, signal: new AbortController().signal });

describe('complete', () => {
    let server: Http.Server;
    let baseUrl: string;
    let answer: (res: Http.ServerResponse) => void = () => {};
    beforeAll(async () => {
        server = Http.createServer((req, res) => {
            req.resume();
            req.on('end', () => answer(res));
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('quotes an error body that is not JSON, and says when there is none', async () => {
        answer = (res) => res.writeHead(400, { 'content-type': 'text/plain' }).end('no such route here');
        await expect(complete({ apiKey: 'sk-test', baseUrl, model: null }, request, options())).rejects.toThrow(
            'the language-model endpoint answered HTTP 400: 400 no such route here'
        );
        answer = (res) => res.writeHead(404).end();
        await expect(complete({ apiKey: 'sk-test', baseUrl, model: null }, request, options())).rejects.toThrow(
            'the language-model endpoint answered HTTP 404 (check the model name and base URL): 404 status code (no body)'
        );
    });

    it('says a 2xx body that is not JSON is not JSON', async () => {
        answer = (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>a login page</html>');
        await expect(complete({ apiKey: 'sk-test', baseUrl, model: null }, request, options())).rejects.toThrow(
            'the language-model endpoint answered HTTP 200 with a body that is not JSON: <html>a login page</html>'
        );
    });

    it('names the endpoint it could not reach, after trying again', async () => {
        const closed = Http.createServer();
        await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
        const port = (closed.address() as AddressInfo).port;
        await new Promise<void>((resolve) => closed.close(() => resolve()));
        await expect(complete({ apiKey: 'sk-test', baseUrl: `http://127.0.0.1:${port}/v1`, model: null }, request, options())).rejects.toThrow(
            new RegExp(`^could not reach the language-model endpoint http://127\\.0\\.0\\.1:${port}/v1: .*ECONNREFUSED`)
        );
    });
});
