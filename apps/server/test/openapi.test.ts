import Hapi from '@hapi/hapi';
import Joi from 'joi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildOpenApi } from '../src/http/openapi.js';
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
    responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
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
        expect(doc.info).toEqual({ title: 'flowctl API', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
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
            { method: '*', path: '/any', handler: () => null }
        ]);

        const doc = buildOpenApi(server, { title: 'test', version: '1.0.0' });
        expect(Object.keys(doc.paths).sort()).toEqual(['/files/{path}', '/items/{id}/parts/{part}', '/plain', '/uploads']);
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
