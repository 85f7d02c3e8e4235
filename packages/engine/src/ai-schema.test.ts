import { describe, expect, it } from 'vitest';
import { buildOutputSchema, validateAiReply } from './ai-schema.js';
import type { AiOutputField } from './types.js';

const output: AiOutputField[] = [
    { name: 'summary', type: 'string' },
    { name: 'tags', type: 'array' }
];

describe('buildOutputSchema', () => {
    it('builds a strict structured-output schema', () => {
        expect(buildOutputSchema(output)).toEqual({
            type: 'object',
            properties: { summary: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
            required: ['summary', 'tags'],
            additionalProperties: false
        });
    });

    it('creates real properties even for awkward names', () => {
        const schema = buildOutputSchema([{ name: '__proto__', type: 'string' }]);
        expect(Object.keys(schema.properties as object)).toEqual(['__proto__']);
    });
});

describe('validateAiReply', () => {
    it('accepts a matching reply and returns only the declared fields', () => {
        expect(validateAiReply(output, { summary: 's', tags: ['a'] })).toEqual({
            ok: true,
            value: { summary: 's', tags: ['a'] }
        });
        expect(validateAiReply(output, { summary: '', tags: [] })).toEqual({ ok: true, value: { summary: '', tags: [] } });
    });

    it('names each problem precisely', () => {
        const check = (reply: unknown) => {
            const result = validateAiReply(output, reply);
            expect(result.ok).toBe(false);
            return result.ok ? '' : result.message;
        };
        expect(check({ tags: [] })).toBe("missing field 'summary'");
        expect(check({ summary: 's', tags: 'a,b' })).toBe("field 'tags' must be an array, got a string");
        expect(check({ summary: 1, tags: [] })).toBe("field 'summary' must be a string, got a number");
        expect(check({ summary: null, tags: [] })).toBe("field 'summary' must be a string, got null");
        expect(check({ summary: 's', tags: ['a', 2] })).toBe("field 'tags' must be an array of strings, but element 1 is a number");
        expect(check({ summary: 's', tags: [], foo: 1 })).toBe("unexpected field 'foo'");
        expect(check({ foo: 1 })).toBe("missing field 'summary'; missing field 'tags'; unexpected field 'foo'");
        expect(check([])).toBe('the reply must be a JSON object, got an array');
        expect(check('text')).toBe('the reply must be a JSON object, got a string');
        expect(check(null)).toBe('the reply must be a JSON object, got null');
        const many = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`x${i}`, i]));
        expect(check({ summary: 's', tags: [], ...many })).toMatch(/unexpected field 'x4'; 4 more unexpected fields$/);
    });

    it('ignores inherited properties', () => {
        const reply = Object.create({ summary: 's', tags: [] });
        expect(validateAiReply(output, reply).ok).toBe(false);
    });
});
