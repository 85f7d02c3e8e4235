import type * as Hapi from '@hapi/hapi';
import JoiToJson from 'joi-to-json';

import { errorResponses, type ResponseTraits, successResponse } from './openapi-responses.js';
import { RATE_LIMIT_EXEMPT } from './rate-limit.js';

/**
 * Per-route hints for the document, for what hapi's route options cannot say:
 * `options.plugins.openapi = { status: 201 }` names the success code that `response.schema` describes
 * (default 200; `response.status` schemas name their own codes); `requestBody` replaces the generated
 * request body (e.g. for multipart uploads); `exclude` leaves the route out; `errors` lists the
 * error statuses the route answers besides the server-wide ones (see openapi-responses.ts), e.g.
 * `[409]`; `produces` names the success body's types when it is not JSON, e.g. `['text/html']`.
 */
export interface OpenApiRouteOptions {
    status?: number;
    errors?: number[];
    produces?: string[];
    requestBody?: Record<string, unknown>;
    exclude?: boolean;
}

declare module '@hapi/hapi' {
    interface PluginSpecificConfiguration {
        openapi?: OpenApiRouteOptions;
    }
}

// The package is CommonJS exporting the function itself; its types describe an ES module.
const parse = JoiToJson as unknown as typeof JoiToJson.parse;

type JsonSchema = Record<string, unknown>;

interface Describable {
    describe(): unknown;
}

// The parts of a route's settings read here, loosely typed: other modules may set anything.
interface LooseSettings {
    description?: string;
    notes?: string | string[];
    tags?: string[];
    id?: string;
    auth?: false | object;
    validate?: { params?: unknown; query?: unknown; payload?: unknown; headers?: unknown };
    response?: { schema?: unknown; status?: Record<string, unknown> };
    payload?: { multipart?: unknown; allow?: string | string[]; output?: string; parse?: unknown };
    plugins?: { openapi?: OpenApiRouteOptions; rateLimit?: unknown };
}

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'options']);

const isJoi = (value: unknown): value is Describable => typeof (value as Describable | null)?.describe === 'function';

/**
 * OpenAPI 3.0 allows `nullable` only beside a `type`; joi-to-json leaves it alone on `Joi.object().unknown().allow(null)`
 * and on `Joi.any().allow(null)`. Such a schema is an object when it has properties, and anything (null too) otherwise.
 */
const fixNullable = (value: unknown): void => {
    const stack = [value];
    while (stack.length > 0) {
        const node = stack.pop();
        if (!node || typeof node !== 'object') {
            continue;
        }

        const schema = node as JsonSchema;
        if (schema.nullable === true && schema.type === undefined && schema.$ref === undefined) {
            if (schema.properties || schema.additionalProperties !== undefined) {
                schema.type = 'object';
            } else {
                delete schema.nullable;
            }
        }

        stack.push(...Object.values(schema));
    }
};

/** Joi to an OpenAPI 3.0 schema; shared (`.id()`/`.shared()`) schemas land in `components`. */
const toSchema = (schema: unknown, components: Record<string, JsonSchema>): JsonSchema => {
    if (!isJoi(schema)) {
        return {};
    }

    try {
        const converted = parse(schema as never, 'open-api', components) as JsonSchema;
        delete converted.schemas;
        fixNullable(converted);
        return converted;
    } catch {
        // One odd schema must not take the whole document down.
        return { description: 'This schema could not be converted' };
    }
};

const pathParams = (path: string): string[] => [...path.matchAll(/\{(\w+)[^}]*\}/g)].map((match) => match[1]!);

const parameters = (location: 'path' | 'query' | 'header', schema: unknown, names: string[], components: Record<string, JsonSchema>) => {
    const converted = toSchema(schema, components) as { properties?: Record<string, JsonSchema>; required?: string[] };
    const properties = converted.properties ?? {};
    const all = location === 'path' ? [...new Set([...names, ...Object.keys(properties)])] : Object.keys(properties);
    return all.map((name) => {
        const { description, ...rest } = properties[name] ?? { type: 'string' };
        return {
            name,
            in: location,
            required: location === 'path' || (converted.required ?? []).includes(name),
            ...(description ? { description } : {}),
            schema: rest
        };
    });
};

const operationId = (method: string, path: string): string =>
    method +
    path
        .replace(/^\/api\//, '/')
        .split('/')
        .filter(Boolean)
        .map((part) => {
            const param = /^\{(\w+)/.exec(part)?.[1];
            const word = (param ? `By-${param}` : part).replace(/[^A-Za-z0-9]+(.)?/g, (_all, next: string | undefined) => (next ?? '').toUpperCase());
            return word.charAt(0).toUpperCase() + word.slice(1);
        })
        .join('');

const operation = (route: Hapi.RequestRoute, components: Record<string, JsonSchema>) => {
    const settings = route.settings as unknown as LooseSettings;
    const hints = settings.plugins?.openapi ?? {};
    const validate = settings.validate ?? {};
    // A hook's URL is its credential (POST /api/hooks/{hookId}): no bearer token.
    const secured = settings.auth !== false && !(settings.auth as { strategies?: string[] } | undefined)?.strategies?.includes('hook');

    const op: Record<string, unknown> = { operationId: settings.id ?? operationId(route.method, route.path) };
    if (settings.description) {
        op.summary = settings.description;
    }

    if (settings.notes) {
        op.description = Array.isArray(settings.notes) ? settings.notes.join('\n\n') : settings.notes;
    }

    const tags = (settings.tags ?? []).filter((tag) => tag !== 'api');
    if (tags.length > 0) {
        op.tags = tags;
    }

    const params = [
        ...parameters('path', validate.params, pathParams(route.path), components),
        ...parameters('query', validate.query, [], components),
        ...parameters('header', validate.headers, [], components).filter((p) => p.name.toLowerCase() !== 'authorization')
    ];
    if (params.length > 0) {
        op.parameters = params;
    }

    const multipart = Boolean(settings.payload?.multipart) || [settings.payload?.allow ?? []].flat().includes('multipart/form-data');
    if (hints.requestBody) {
        op.requestBody = hints.requestBody;
    } else if (isJoi(validate.payload) || multipart) {
        const schema = isJoi(validate.payload) ? toSchema(validate.payload, components) : { type: 'object' };
        op.requestBody = { required: true, content: { [multipart ? 'multipart/form-data' : 'application/json']: { schema } } };
    }

    const query = toSchema(validate.query, components) as { properties?: Record<string, unknown> };
    const traits: ResponseTraits = {
        secured,
        rateLimited: !RATE_LIMIT_EXEMPT.has(route.path),
        hasPathParams: pathParams(route.path).length > 0,
        takesBody: !['get', 'head'].includes(route.method),
        restrictsType: Boolean(op.requestBody) || settings.payload?.allow !== undefined,
        paged: Boolean(query.properties && ('cursor' in query.properties || 'offset' in query.properties)),
        conditional: params.some((param) => param.name.toLowerCase() === 'if-none-match'),
        extraErrors: hints.errors ?? [],
        ...(hints.produces ? { produces: hints.produces } : {})
    };

    const responses: Record<string, unknown> = {};
    for (const [code, schema] of Object.entries(settings.response?.status ?? {})) {
        responses[code] = successResponse(Number(code), traits, { schema: isJoi(schema) ? toSchema(schema, components) : undefined, produces: hints.produces });
    }

    const successCode = String(hints.status ?? 200);
    if (!Object.keys(responses).some((code) => /^[23]/.test(code))) {
        const schema = isJoi(settings.response?.schema) ? toSchema(settings.response.schema, components) : undefined;
        responses[successCode] = successResponse(Number(successCode), traits, { schema, produces: hints.produces });
    }

    if (traits.conditional) {
        responses['304'] = successResponse(304, traits, {});
    }

    Object.assign(responses, errorResponses(traits));
    op.security = secured ? [{ bearerAuth: [] }] : [];
    op.responses = responses;
    return op;
};

/** An OpenAPI 3.0 document for every route in the server's table, from the routes' joi schemas. */
export const buildOpenApi = (server: Hapi.Server, info: { title: string; version: string; serverUrl?: string | null }) => {
    const components: Record<string, JsonSchema> = {};
    const paths: Record<string, Record<string, unknown>> = {};
    const routes = [...server.table()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
    for (const route of routes) {
        const settings = route.settings as unknown as LooseSettings;
        if (!METHODS.has(route.method) || settings.plugins?.openapi?.exclude) {
            continue;
        }

        // hapi's `{name}` is OpenAPI's syntax; `{name?}` and `{name*}` are not.
        const path = route.path.replace(/\{(\w+)[?*\d]*\}/g, '{$1}');
        paths[path] ??= {};
        paths[path][route.method] = operation(route, components);
    }

    fixNullable(components);
    return {
        openapi: '3.0.3',
        info: { title: info.title, version: info.version, license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' } },
        servers: [{ url: info.serverUrl ?? '/' }],
        paths,
        components: {
            securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
            schemas: {
                ...components,
                Error: {
                    type: 'object',
                    required: ['statusCode', 'error', 'message'],
                    properties: {
                        statusCode: { type: 'integer' },
                        error: { type: 'string' },
                        message: { type: 'string' },
                        details: {
                            type: 'array',
                            items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } }
                        }
                    }
                }
            }
        }
    };
};
