import ChildProcess from 'node:child_process';
import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import Hapi from '@hapi/hapi';
import Joi from 'joi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildOpenApi } from '../src/http/openapi.js';
import { createContract } from './contract.js';
import { startTestServer, type TestServer } from './harness.js';

type Doc = ReturnType<typeof buildOpenApi>;
interface Schema {
    type?: string;
    format?: string;
    required?: string[];
    additionalProperties?: unknown;
    properties: Record<string, Schema>;
}
interface Operation {
    operationId: string;
    security: unknown[];
    parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
    requestBody?: { content: Record<string, { schema: Schema }> };
    responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> }>;
}

const op = (doc: Doc, path: string, method: string) => (doc.paths[path] as Record<string, Operation> | undefined)?.[method];

/** Every `$ref` in the document names a schema the document has. */
const refs = (value: unknown): string[] =>
    Array.isArray(value)
        ? value.flatMap(refs)
        : value && typeof value === 'object'
          ? Object.entries(value).flatMap(([key, inner]) => (key === '$ref' ? [inner as string] : refs(inner)))
          : [];

describe('GET /openapi.json', () => {
    let t: TestServer;
    let doc: Doc;
    beforeAll(async () => {
        t = await startTestServer();
        const res = await t.request({ method: 'GET', url: '/openapi.json' });
        expect(res.statusCode).toBe(200);
        doc = res.json;
    });
    afterAll(() => t.close());

    it('is an OpenAPI 3 document listing every route of the server', () => {
        expect(doc.openapi).toMatch(/^3\.0\./);
        expect(doc.info).toEqual({ title: 'flowctl API', version: expect.stringMatching(/^\d+\.\d+\.\d+/), license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' } });
        for (const route of t.app.server!.table()) {
            const path = route.path.replace(/\{(\w+)[?*\d]*\}/g, '{$1}');
            expect(op(doc, path, route.method), `${route.method} ${path}`).toBeDefined();
        }

        const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods as Record<string, Operation>).map((o) => o.operationId));
        expect(new Set(ids).size).toBe(ids.length);
        for (const ref of refs(doc)) {
            expect(doc.components.schemas).toHaveProperty(ref.replace('#/components/schemas/', ''));
        }
    });

    it('converts request and response schemas from joi', () => {
        const register = op(doc, '/api/auth/register', 'post')!;
        const body = register.requestBody!.content['application/json']!.schema;
        expect(body.required).toEqual(['email', 'password', 'fullName']);
        expect(body.additionalProperties).toBe(false);
        expect(body.properties.email).toMatchObject({ type: 'string', format: 'email', maxLength: 254 });
        expect(body.properties.password).toMatchObject({ type: 'string', minLength: 8, maxLength: 256 });
        expect(register.responses['201']!.content!['application/json']!.schema.properties.message!.type).toBe('string');
        expect(register.responses).toHaveProperty('400');
        expect(register.responses).toHaveProperty('429');
        expect(register.security).toEqual([]);

        const login = op(doc, '/api/auth/login', 'post')!;
        expect(login.responses['200']!.content!['application/json']!.schema.properties.expiresIn!.type).toBe('integer');

        const settings = op(doc, '/api/account/settings', 'put')!;
        const ai = settings.requestBody!.content['application/json']!.schema.properties.ai!;
        expect(ai.properties.baseUrl).toMatchObject({ type: 'string', format: 'uri', nullable: true });
    });

    it('marks routes behind the access token with the bearer scheme, and public ones without', () => {
        expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
        const me = op(doc, '/api/auth/me', 'get')!;
        expect(me.security).toEqual([{ bearerAuth: [] }]);
        expect(me.responses).toHaveProperty('401');
        expect(op(doc, '/healthz', 'get')!.security).toEqual([]);
        expect(op(doc, '/healthz', 'get')!.responses).not.toHaveProperty('429');
    });

    it('documents every status a route can answer with the error schema, every header, and 204 without content', () => {
        const remove = op(doc, '/api/uploads/{uploadId}', 'delete')!;
        expect(Object.keys(remove.responses)).toEqual(['204', '400', '401', '404', '408', '409', '413', '429', '503']);
        expect(remove.responses['204']!.content).toBeUndefined();
        expect(remove.responses['409']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
        expect(Object.keys(remove.responses['429']!.headers!)).toEqual(['x-request-id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);

        expect(Object.keys(op(doc, '/api/uploads', 'post')!.responses)).toEqual(['200', '201', '400', '401', '408', '413', '415', '429', '503']);
        expect(op(doc, '/api/workflows', 'get')!.responses['200']!.headers).toHaveProperty('Link');
        expect(op(doc, '/api/workflows/{workflowId}/runs', 'get')!.responses['200']!.headers).toHaveProperty('Link');
        expect(op(doc, '/api/workflows/{workflowId}', 'get')!.responses['200']!.headers).not.toHaveProperty('Link');
        expect(op(doc, '/metrics', 'get')!.responses['200']!.content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
        expect(Object.keys(op(doc, '/healthz', 'get')!.responses['200']!.headers!)).toEqual(['x-request-id']);
    });

    it('lints clean with Redocly: no errors, no warnings', async () => {
        const dir = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-openapi-'));
        try {
            const file = Path.join(dir, 'openapi.json');
            await Fs.writeFile(file, JSON.stringify(doc));
            const root = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), '../../..');
            const result = await promisify(ChildProcess.execFile)(
                Path.join(root, 'node_modules/.bin/redocly'),
                ['lint', file, '--config', Path.join(root, 'redocly.yaml'), '--format', 'stylish', '--max-problems', '1000'],
                { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } }
            ).catch((err: { stdout: string; stderr: string }) => err);
            const output = `${result.stdout}\n${result.stderr}`;
            expect(output).toMatch(/Your API description is valid/);
            expect(output).not.toMatch(/warning|error/i);
        } finally {
            await Fs.rm(dir, { recursive: true, force: true });
        }
    });

    it("its checker, which every suite's responses pass through, refuses what the document does not promise", () => {
        const contract = createContract(doc as never);
        const ok = { method: 'GET', url: '/api/workflows?limit=2', status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '[]' };
        expect(() => contract.check(ok)).not.toThrow();
        expect(() => contract.check({ ...ok, status: 418 })).toThrow(/status not documented/);
        expect(() => contract.check({ ...ok, body: '[{"id": 1}]' })).toThrow(/body does not match the document/);
        expect(() => contract.check({ ...ok, url: '/api/workflows/wf_1', headers: { ...ok.headers, link: '<x>; rel="next"' } })).toThrow(/header link not documented/);
        expect(() => contract.check({ method: 'DELETE', url: '/api/workflows/wf_1', status: 204, headers: {}, body: '{}' })).toThrow(/without content/);
    });

    it('is built once and served the same afterwards', async () => {
        const again = await t.request({ method: 'GET', url: '/openapi.json' });
        expect(again.json).toEqual(doc);
    });
});

describe('buildOpenApi on any route', () => {
    it('tolerates routes without schemas, custom validators, wildcard and optional parameters, and honours hints', async () => {
        const server = Hapi.server();
        server.route([
            { method: 'GET', path: '/plain', handler: () => 'ok' },
            { method: 'GET', path: '/files/{path*}', options: { validate: { params: ((value: object) => value) as never } }, handler: () => 'ok' },
            {
                method: 'GET',
                path: '/items/{id}/parts/{part?}',
                options: {
                    description: 'Parts of an item',
                    tags: ['api', 'items'],
                    validate: {
                        params: Joi.object({ id: Joi.string().description('The item'), part: Joi.string() }),
                        query: Joi.object({ limit: Joi.number().integer().min(1).max(500), order: Joi.string().valid('asc', 'desc').required() })
                    },
                    response: { schema: Joi.array().items(Joi.object({ id: Joi.string() }).id('Part')) }
                },
                handler: () => []
            },
            {
                method: 'POST',
                path: '/uploads',
                options: { payload: { parse: false, output: 'stream' }, plugins: { openapi: { status: 201, requestBody: { content: { 'multipart/form-data': {} } } } } },
                handler: () => ({})
            },
            { method: 'DELETE', path: '/hidden', options: { plugins: { openapi: { exclude: true } } }, handler: () => null },
            {
                method: 'GET',
                path: '/login/callback',
                options: { auth: false, response: { status: { 302: Joi.any() } }, plugins: { openapi: { errors: [409, 502] } } },
                handler: (_r, h) => h.redirect('/')
            },
            { method: 'GET', path: '/page', options: { plugins: { openapi: { produces: ['text/html'] } } }, handler: () => '<p>hi</p>' },
            { method: '*', path: '/any', handler: () => null }
        ]);

        const doc = buildOpenApi(server, { title: 'test', version: '1.0.0' });
        expect(Object.keys(doc.paths).sort()).toEqual(['/files/{path}', '/items/{id}/parts/{part}', '/login/callback', '/page', '/plain', '/uploads']);
        const callback = op(doc, '/login/callback', 'get')!;
        expect(Object.keys(callback.responses)).toEqual(['302', '400', '409', '429', '502', '503']);
        expect(callback.responses['302']).toMatchObject({ headers: { Location: { required: true } } });
        expect(callback.responses['302']!.content).toBeUndefined();
        expect(op(doc, '/page', 'get')!.responses['200']!.content).toEqual({ 'text/html': { schema: { type: 'string' } } });
        expect(op(doc, '/plain', 'get')!.responses).toHaveProperty('200');
        expect(op(doc, '/files/{path}', 'get')!.parameters).toEqual([{ name: 'path', in: 'path', required: true, schema: { type: 'string' } }]);

        const parts = op(doc, '/items/{id}/parts/{part}', 'get')!;
        expect(parts.parameters).toEqual([
            { name: 'id', in: 'path', required: true, description: 'The item', schema: { type: 'string' } },
            { name: 'part', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500 } },
            { name: 'order', in: 'query', required: true, schema: { type: 'string', enum: ['asc', 'desc'] } }
        ]);
        expect(parts.responses['200']!.content!['application/json']!.schema.type).toBe('array');
        expect(op(doc, '/uploads', 'post')!.requestBody).toEqual({ content: { 'multipart/form-data': {} } });
        expect(op(doc, '/uploads', 'post')!.responses).toHaveProperty('201');
        for (const ref of refs(doc)) {
            expect(doc.components.schemas).toHaveProperty(ref.replace('#/components/schemas/', ''));
        }
    });
});
