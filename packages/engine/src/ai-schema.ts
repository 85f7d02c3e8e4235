// The AI node's declared outputs become a JSON schema for structured output, and every reply is
// checked against the same declaration, because not every OpenAI-compatible endpoint enforces it.
// OpenAI's strict mode requires every property to be listed in `required`, `additionalProperties:
// false`, and an `items` schema for arrays: array outputs are arrays of strings.

import { describeType, quote } from './text.js';
import type { AiOutputField } from './types.js';

export function buildOutputSchema(output: readonly AiOutputField[]): Record<string, unknown> {
    const properties: Record<string, unknown> = {};
    for (const field of output) {
        Object.defineProperty(properties, field.name, {
            value: field.type === 'array' ? { type: 'array', items: { type: 'string' } } : { type: 'string' },
            enumerable: true,
            writable: true,
            configurable: true
        });
    }
    return {
        type: 'object',
        properties,
        required: output.map((field) => field.name),
        additionalProperties: false
    };
}

export type AiReplyCheck = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

const MAX_LISTED = 5;

export function validateAiReply(output: readonly AiOutputField[], reply: unknown): AiReplyCheck {
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
        return { ok: false, message: `the reply must be a JSON object, got ${describeType(reply)}` };
    }
    const record = reply as Record<string, unknown>;
    const problems: string[] = [];
    const value: Record<string, unknown> = {};
    for (const field of output) {
        if (!Object.hasOwn(record, field.name)) {
            problems.push(`missing field '${field.name}'`);
            continue;
        }
        const v = record[field.name];
        const problem = checkField(field, v);
        if (problem !== null) problems.push(problem);
        else Object.defineProperty(value, field.name, { value: v, enumerable: true, writable: true, configurable: true });
    }
    const declared = new Set(output.map((field) => field.name));
    const unexpected = Object.keys(record).filter((key) => !declared.has(key));
    for (const key of unexpected.slice(0, MAX_LISTED)) problems.push(`unexpected field ${quote(key, 40)}`);
    if (unexpected.length > MAX_LISTED) problems.push(`${unexpected.length - MAX_LISTED} more unexpected fields`);
    return problems.length === 0 ? { ok: true, value } : { ok: false, message: problems.join('; ') };
}

function checkField(field: AiOutputField, v: unknown): string | null {
    if (field.type === 'string') {
        return typeof v === 'string' ? null : `field '${field.name}' must be a string, got ${describeType(v)}`;
    }
    if (!Array.isArray(v)) return `field '${field.name}' must be an array, got ${describeType(v)}`;
    const bad = v.findIndex((element) => typeof element !== 'string');
    if (bad !== -1) {
        return `field '${field.name}' must be an array of strings, but element ${bad} is ${describeType(v[bad])}`;
    }
    return null;
}
