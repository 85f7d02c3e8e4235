// The engine's node rules (nodeDataSchemas) -> src/generated/nodes.ts: a graph node whose `type` decides
// what its `data` may hold, so `{type: 'OUTPUT', data: {source, expr}}` does not compile and a typo is
// named. Shared by `npm run generate` and the drift test.
const BANNER = `// Generated from the engine's node rules (nodeDataSchemas) by \`npm run generate -w @flowctl/sdk\`. Do not
// edit: a test fails when this file differs from what the engine checks.
`;

const NAMES = { TRIGGER: 'Trigger', DATA_SOURCE: 'DataSource', AI: 'Ai', FILTER: 'Filter', OUTPUT: 'Output' };

const FIELD_TYPES = {
    string: 'string',
    output: "{ name: string; type: 'string' | 'array' }[]",
    schedule: '{ cron: string; timezone?: string }',
    boolean: 'boolean'
};

const fieldType = (field) => FIELD_TYPES[field.kind];

/** The members of one data type: `name: T;` or `name?: T;`, in the engine's order. */
const members = (fields, required = (field) => field.required, never = []) => [
    ...fields.map((field) => `${field.name}${required(field) ? '' : '?'}: ${fieldType(field)};`),
    ...never.map((name) => `${name}?: never;`)
];

const dataType = (name, schema) => {
    if (schema.fields.length === 0) {
        // Not Record<string, never>: an index signature in the union hides which node a typo is in.
        return `export type ${name}NodeData = Record<never, never>;`;
    }

    // Only optional fields (a TRIGGER's schedule and webhook): empty (each field absent, so `{ webhok: true }`
    // is refused and `webhook` suggested), or one member per field with that field present. Not
    // Record<never, never>: that is `{}`, which takes any object (`{ schedule: 5 }` compiled). What kept
    // the typos of other nodes named is the empty member of GraphNodeInput (EMPTY_MEMBER).
    if (!schema.exactlyOneOf && schema.fields.every((field) => !field.required)) {
        const empty = `{ ${schema.fields.map((field) => `${field.name}?: never`).join('; ')} }`;
        const variants = schema.fields.map((chosen) => `{ ${members(schema.fields, (field) => field === chosen).map((m) => m.slice(0, -1)).join('; ')} }`);
        return `export type ${name}NodeData =\n${[empty, ...variants].map((v) => `    | ${v}`).join('\n')};`;
    }

    if (!schema.exactlyOneOf) {
        return `export interface ${name}NodeData {\n${members(schema.fields).map((m) => `    ${m}`).join('\n')}\n}`;
    }

    // One member per field of exactlyOneOf: it is required there, the others are absent, and a field that
    // needs another one appears only beside it.
    const variants = schema.exactlyOneOf.map((chosen) => {
        const fields = schema.fields.filter((field) => !schema.exactlyOneOf.includes(field.name) || field.name === chosen).filter((field) => !schema.needs?.[field.name] || schema.needs[field.name] === chosen);
        const absent = schema.fields.map((field) => field.name).filter((field) => !fields.some((f) => f.name === field));
        return `{ ${members(fields, (field) => field.required || field.name === chosen, absent).map((m) => m.slice(0, -1)).join('; ')} }`;
    });
    return `export type ${name}NodeData =\n${variants.map((v) => `    | ${v}`).join('\n')};`;
};

/**
 * A member no node can be (its `type` is never), whose `data` is `{}`. TypeScript checks a node literal's
 * `data` for unknown fields first against every member's data at once (it does not narrow by `type`
 * there), and then, narrowed by `type`, against its own. With `{}` among them the first check passes, and
 * the second names the typo in the node's own type: "'subjet' does not exist in type 'OutputNodeData'.
 * Did you mean to write 'subject'?". Without it, the first check fails and names the union of all data
 * types, with no suggestion. A switch over `type` stays exhaustive: the member has no `type` to match.
 */
const EMPTY_MEMBER = `    /** Not a node: keeps TypeScript naming a typo in the node's own data type (see scripts/node-types.mjs). */
    | { id: string; type: never; data: Record<never, never> }`;

/** The TypeScript source for `schemas` (the engine's nodeDataSchemas()). */
export const nodeTypesSource = (schemas) => {
    const types = Object.keys(schemas);
    const parts = types.map((type) => dataType(NAMES[type], schemas[type]));
    const union = types.map((type) => `    | { id: string; type: '${type}'; data: ${NAMES[type]}NodeData }`).join('\n');
    return `${BANNER}
${parts.join('\n\n')}

/** A node as sent to the server: its \`type\` decides its \`data\`. */
export type GraphNodeInput =
${union}
${EMPTY_MEMBER};

/** A graph as sent to the server (create, update, preview). */
export interface GraphInput {
    nodes: GraphNodeInput[];
    edges: { source: string; target: string }[];
}
`;
};
