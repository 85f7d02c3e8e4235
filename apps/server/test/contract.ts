import AjvModule, { type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// Both are CommonJS with a default export; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

// Every response the API suites receive is checked against the server's own /openapi.json: the
// status is documented for the route, the body matches its schema, the headers are documented.
// The SDK's types are generated from that document, so a difference is a defect of one or the other.

interface Doc {
    paths: Record<string, Record<string, { responses: Record<string, DocResponse> }>>;
}

interface DocResponse {
    headers?: Record<string, unknown>;
    content?: Record<string, { schema: unknown }>;
}

export interface CheckedResponse {
    method: string;
    /** The request URL; only its path is used. */
    url: string;
    status: number;
    headers: Record<string, unknown>;
    body: string;
}

/** Headers the document must name wherever they appear. */
const WATCHED = ['link', 'location', 'retry-after', 'x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

export const createContract = (doc: Doc) => {
    const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
    addFormats(ajv);
    ajv.addSchema(doc, 'openapi.json');
    const compiled = new Map<string, ValidateFunction>();

    // Literal segments before parameters: /api/workflows/runs/{runId} before /api/workflows/{workflowId}.
    const templates = Object.keys(doc.paths)
        .map((path) => ({ path, params: (path.match(/\{/g) ?? []).length, regex: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`) }))
        .sort((a, b) => a.params - b.params);

    const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

    return {
        /** Throws, saying what differs, when the response is not what the document promises. */
        check(response: CheckedResponse): void {
            const path = new URL(response.url, 'http://x').pathname.replace(/(.)\/+$/, '$1');
            const template = templates.find((t) => t.regex.test(path));
            const method = response.method.toLowerCase();
            const operation = template ? doc.paths[template.path]?.[method] : undefined;
            if (!template || !operation) {
                return; // Not a route of the API (hapi's own 404 for unknown paths).
            }

            const where = `${response.method} ${template.path} → ${response.status}`;
            const documented = operation.responses[String(response.status)];
            if (!documented) {
                throw new Error(`${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')}); body ${response.body.slice(0, 300)}`);
            }

            const headerNames = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase());
            for (const name of WATCHED) {
                if (response.headers[name] !== undefined && !headerNames.includes(name)) {
                    throw new Error(`${where}: header ${name} not documented`);
                }
            }

            if (response.status === 204 || !documented.content) {
                if (response.body !== '') {
                    throw new Error(`${where}: documented without content, got ${response.body.slice(0, 200)}`);
                }

                return;
            }

            const type = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
            if (!documented.content[type]) {
                throw new Error(`${where}: content type ${type} not documented (${Object.keys(documented.content).join(', ')})`);
            }

            if (type !== 'application/json') {
                return;
            }

            const ref = `openapi.json#/${pointer('paths', template.path, method, 'responses', String(response.status), 'content', type, 'schema')}`;
            const validate = compiled.get(ref) ?? ajv.compile({ $ref: ref });
            compiled.set(ref, validate);

            if (!validate(JSON.parse(response.body))) {
                throw new Error(`${where}: body does not match the document: ${ajv.errorsText(validate.errors)}; body ${response.body.slice(0, 300)}`);
            }
        }
    };
};

export type Contract = ReturnType<typeof createContract>;
