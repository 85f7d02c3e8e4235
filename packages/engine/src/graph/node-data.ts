// Per-type rules for a node's `data`: required fields, their types, and no unknown fields (a typo
// such as `exp` for `expr` must not pass silently and leave the node doing nothing).

import { type ScheduleOptions, scheduleProblems } from '../schedule.js';
import { closest, describeType, listNames, withArticle } from '../text.js';
import type { NodeType } from '../types.js';

export interface Problem {
    path: string;
    message: string;
}

/** How a string field is read at run time. */
export type FieldUse =
    /** Text with embedded references. */
    | 'text'
    /** Exactly one reference to an array (`{{ds.rows}}`). */
    | 'array-reference'
    /** A filter expression. */
    | 'filter'
    /** Used verbatim. */
    | 'literal';

interface FieldRule {
    required: boolean;
    nonEmpty: boolean;
    use: FieldUse;
}

const required = (use: FieldUse, nonEmpty = true): FieldRule => ({ required: true, nonEmpty, use });
const optional = (use: FieldUse, nonEmpty = true): FieldRule => ({ required: false, nonEmpty, use });

/** String fields per type. AI `output` is checked separately (it is an array). */
export const STRING_FIELDS: Record<NodeType, Record<string, FieldRule>> = {
    TRIGGER: {},
    DATA_SOURCE: { uploadId: optional('literal'), driveFileId: optional('literal'), sheet: optional('literal') },
    AI: {
        prompt: required('text'),
        model: optional('literal'),
        system: optional('text', false),
        forEach: optional('array-reference')
    },
    FILTER: { source: required('array-reference'), expr: required('filter') },
    OUTPUT: {
        forEach: required('array-reference'),
        to: required('text'),
        subject: required('text', false),
        body: required('text', false),
        html: optional('text', false)
    }
};

const ALLOWED_FIELDS: Record<NodeType, string[]> = {
    TRIGGER: ['schedule', 'webhook'],
    DATA_SOURCE: ['uploadId', 'driveFileId', 'sheet'],
    AI: ['prompt', 'output', 'model', 'system', 'forEach'],
    FILTER: ['source', 'expr'],
    OUTPUT: ['forEach', 'to', 'subject', 'body', 'html']
};

/** One field of a node's data, as checkNodeData() checks it: what the SDK's node types are generated from. */
export interface NodeDataField {
    name: string;
    required: boolean;
    /** `string`; `output` for the AI node's list of {name, type} fields; a TRIGGER's `schedule` ({cron, timezone?}) and `webhook` (boolean). */
    kind: 'string' | 'output' | 'schedule' | 'boolean';
}

/**
 * Each type's data fields, and for DATA_SOURCE the fields of which exactly one must be set (with the
 * fields that need a particular one of them): the rules above, described for code generators.
 */
export const nodeDataSchemas = (): Record<NodeType, { fields: NodeDataField[]; exactlyOneOf?: string[]; needs?: Record<string, string> }> => {
    const schemas = {} as Record<NodeType, { fields: NodeDataField[]; exactlyOneOf?: string[]; needs?: Record<string, string> }>;
    for (const type of Object.keys(ALLOWED_FIELDS) as NodeType[]) {
        const fields = ALLOWED_FIELDS[type].map((name): NodeDataField => {
            const rule = STRING_FIELDS[type][name];
            if (rule) {
                return { name, required: rule.required, kind: 'string' };
            }

            return type === 'TRIGGER' ? { name, required: false, kind: name === 'schedule' ? 'schedule' : 'boolean' } : { name, required: true, kind: 'output' };
        });
        schemas[type] = type === 'DATA_SOURCE' ? { fields, exactlyOneOf: [...DATA_SOURCE_ONE_OF], needs: { sheet: 'driveFileId' } } : { fields };
    }

    return schemas;
};

const DATA_SOURCE_ONE_OF = ['uploadId', 'driveFileId'] as const;

const OUTPUT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function checkNodeData(type: NodeType, data: Record<string, unknown>, path: string, options: ScheduleOptions = {}): Problem[] {
    const problems: Problem[] = [];
    const allowed = ALLOWED_FIELDS[type];
    for (const key of Object.keys(data)) {
        if (allowed.includes(key)) continue;
        if (type === 'TRIGGER') {
            problems.push({ path: `${path}.${key}`, message: `unknown field '${key}' for a TRIGGER node; it takes 'schedule' ({cron, timezone?}) and 'webhook' (true)` });
            continue;
        }
        const guess = closest(key, allowed);
        problems.push({
            path: `${path}.${key}`,
            message: `unknown field '${key}' for ${withArticle(type)} node${guess ? ` (did you mean '${guess}'?)` : ''}; allowed fields are ${listNames(allowed)}`
        });
    }
    for (const [name, rule] of Object.entries(STRING_FIELDS[type])) {
        const present = Object.hasOwn(data, name);
        const value = data[name];
        if (!present) {
            if (rule.required) {
                problems.push({ path: `${path}.${name}`, message: `${withArticle(type)} node needs '${name}' (a string)` });
            }
        } else if (typeof value !== 'string') {
            problems.push({ path: `${path}.${name}`, message: `'${name}' must be a string, got ${describeType(value)}` });
        } else if (rule.nonEmpty && value.trim() === '') {
            problems.push({ path: `${path}.${name}`, message: `'${name}' must not be empty` });
        }
    }
    if (type === 'DATA_SOURCE') {
        const sources = DATA_SOURCE_ONE_OF.filter((key) => Object.hasOwn(data, key));
        if (sources.length === 0) {
            problems.push({
                path,
                message: "a DATA_SOURCE node needs 'uploadId' (an uploaded CSV) or 'driveFileId' (a Google Drive file)"
            });
        } else if (sources.length === 2) {
            problems.push({ path, message: "set either 'uploadId' or 'driveFileId', not both" });
        }
        if (Object.hasOwn(data, 'sheet') && !Object.hasOwn(data, 'driveFileId')) {
            problems.push({ path: `${path}.sheet`, message: "'sheet' names a sheet of a Google Sheet: it needs 'driveFileId'" });
        }
    }
    if (type === 'AI') problems.push(...checkAiOutput(data, `${path}.output`));
    if (type === 'TRIGGER') {
        if (Object.hasOwn(data, 'schedule')) problems.push(...scheduleProblems(data.schedule, `${path}.schedule`, options));
        if (Object.hasOwn(data, 'webhook') && typeof data.webhook !== 'boolean') {
            problems.push({ path: `${path}.webhook`, message: `'webhook' must be true or false, got ${describeType(data.webhook)}` });
        }
    }
    return problems;
}

/** Outputs every AI node has besides its declared ones. */
export const AI_COST_OUTPUTS: readonly string[] = ['aiCalls', 'aiPromptTokens', 'aiCompletionTokens'];

function checkAiOutput(data: Record<string, unknown>, path: string): Problem[] {
    if (!Object.hasOwn(data, 'output')) {
        return [{ path, message: "an AI node needs 'output': a list of {name, type} fields to extract" }];
    }
    const output = data.output;
    if (!Array.isArray(output) || output.length === 0) {
        return [{ path, message: "'output' must be a non-empty array of {name, type} fields" }];
    }
    const problems: Problem[] = [];
    const names = new Map<string, number>();
    output.forEach((field: unknown, k) => {
        const at = `${path}[${k}]`;
        if (typeof field !== 'object' || field === null || Array.isArray(field)) {
            problems.push({ path: at, message: `each output must be an object {name, type}, got ${describeType(field)}` });
            return;
        }
        const { name, type } = field as Record<string, unknown>;
        for (const key of Object.keys(field)) {
            if (key !== 'name' && key !== 'type') {
                problems.push({ path: `${at}.${key}`, message: `unknown field '${key}' in an output; an output has 'name' and 'type'` });
            }
        }
        if (typeof name !== 'string' || !OUTPUT_NAME.test(name) || name === '__proto__') {
            problems.push({
                path: `${at}.name`,
                message: `output name ${typeof name === 'string' ? `'${name}'` : `(${describeType(name)})`} must be an identifier: letters, digits and '_', not starting with a digit`
            });
        } else if (AI_COST_OUTPUTS.includes(name) || (name === 'items' && typeof data.forEach === 'string')) {
            problems.push({
                path: `${at}.name`,
                message: `output name '${name}' is taken by the node's own '${name}' output${name === 'items' ? ' (the elements with their replies)' : ' (what its model calls cost)'}: choose another name`
            });
        } else if (names.has(name)) {
            problems.push({ path: `${at}.name`, message: `output name '${name}' is already used by output[${names.get(name)}]` });
        } else {
            names.set(name, k);
        }
        if (type !== 'string' && type !== 'array') {
            problems.push({
                path: `${at}.type`,
                message: `output type must be 'string' or 'array', got ${typeof type === 'string' ? `'${type}'` : describeType(type)}`
            });
        }
    });
    return problems;
}
