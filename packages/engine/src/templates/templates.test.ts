import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TemplateError } from '../errors.js';
import type { NodeOutput } from '../types.js';
import { compileTemplate, MAX_RENDERED_CHARS, parseTemplate, renderTemplate, renderTemplateText, type TemplateScope, templateRefs } from './index.js';

const outputs = new Map<string, NodeOutput>([
    ['ds', { rows: [{ name: 'Ann' }, { name: 'Bob' }] }],
    ['ai', { summary: 'short', tags: ['a', 'b'], count: 3, flag: true, nothing: null, obj: { k: 1 } }]
]);
const scope: TemplateScope = { outputs };
const withItem = (item: unknown): TemplateScope => ({ outputs, item });

function templateError(fn: () => unknown): TemplateError {
    try {
        fn();
    } catch (error) {
        expect(error).toBeInstanceOf(TemplateError);
        return error as TemplateError;
    }
    throw new Error('expected a TemplateError');
}

describe('parseTemplate', () => {
    it('splits text and references, allowing whitespace inside the braces', () => {
        const parsed = parseTemplate('Hi {{ item.name }}, see {{ai.summary}}!');
        expect(parsed.parts).toEqual([
            { kind: 'text', text: 'Hi ' },
            { kind: 'ref', ref: { kind: 'item', field: 'name', text: '{{item.name}}', start: 3, end: 18 } },
            { kind: 'text', text: ', see ' },
            { kind: 'ref', ref: { kind: 'node', nodeId: 'ai', output: 'summary', text: '{{ai.summary}}', start: 24, end: 38 } },
            { kind: 'text', text: '!' }
        ]);
        expect(parsed.whole).toBeNull();
    });

    it('recognises a whole-string reference', () => {
        expect(parseTemplate('{{ds.rows}}').whole).toMatchObject({ nodeId: 'ds', output: 'rows' });
        expect(parseTemplate(' {{ds.rows}}').whole).toBeNull();
    });

    it('splits on the first dot and keeps the rest verbatim', () => {
        expect(templateRefs('{{ item.First Name }}')).toMatchObject([{ kind: 'item', field: 'First Name' }]);
        expect(templateRefs('{{item.a.b}}')).toMatchObject([{ kind: 'item', field: 'a.b' }]);
        expect(templateRefs('{{item.Prénom 名}}')).toMatchObject([{ kind: 'item', field: 'Prénom 名' }]);
        expect(templateRefs('{{ node . out }}')).toMatchObject([{ kind: 'node', nodeId: 'node', output: 'out' }]);
        expect(templateRefs('{{item}}')).toMatchObject([{ kind: 'item', field: null }]);
    });

    it('treats \\{{ as a literal {{', () => {
        expect(parseTemplate('\\{{not.a.ref}} and {{ai.count}}').refs).toHaveLength(1);
        expect(renderTemplate('\\{{ai.count}} = {{ai.count}}', scope)).toBe('{{ai.count}} = 3');
        expect(renderTemplate('a \\{{ b', scope)).toBe('a {{ b');
        expect(renderTemplate('\\{{', scope)).toBe('{{');
        expect(renderTemplate('\\ alone and }} stay', scope)).toBe('\\ alone and }} stay');
    });

    it('rejects malformed references with their position', () => {
        expect(templateError(() => parseTemplate('Hi {{item.name')).message).toMatch(
            /unterminated '\{\{' at character 4.*'\\\{\{'/
        );
        expect(templateError(() => parseTemplate('{{}}')).message).toMatch(/empty reference/);
        expect(templateError(() => parseTemplate('{{   }}')).message).toMatch(/empty reference/);
        expect(templateError(() => parseTemplate('{{ds}}')).message).toMatch(/names no output: write \{\{ds.<output>\}\}/);
        expect(templateError(() => parseTemplate('{{.rows}}')).message).toMatch(/incomplete/);
        expect(templateError(() => parseTemplate('{{ds.}}')).message).toMatch(/incomplete/);
        expect(templateError(() => parseTemplate('{{ {{ds.rows}} }}')).message).toMatch(/unexpected '\{'.*cannot be nested/);
        expect(templateError(() => parseTemplate('{{a.b}c}}')).message).toMatch(/unexpected '\}'/);
        expect(templateError(() => parseTemplate('x {{a.b}} {{')).position).toBe(10);
    });
});

describe('renderTemplate', () => {
    it('returns the raw value for a whole-string reference', () => {
        expect(renderTemplate('{{ds.rows}}', scope)).toBe(outputs.get('ds')?.rows);
        expect(renderTemplate('{{ ai.count }}', scope)).toBe(3);
        expect(renderTemplate('{{ai.flag}}', scope)).toBe(true);
        expect(renderTemplate('{{ai.nothing}}', scope)).toBeNull();
        expect(renderTemplate('{{item}}', withItem('tag'))).toBe('tag');
    });

    it('stringifies embedded values', () => {
        expect(renderTemplate('n={{ai.count}} f={{ai.flag}} z={{ai.nothing}} t={{ai.tags}} o={{ai.obj}}', scope)).toBe(
            'n=3 f=true z= t=["a","b"] o={"k":1}'
        );
        expect(renderTemplateText('{{ai.tags}}', scope)).toBe('["a","b"]');
        expect(renderTemplateText('{{ai.count}}', scope)).toBe('3');
    });

    it('mixes item and node references', () => {
        expect(renderTemplate('Dear {{item.First Name}}: {{ai.summary}} ({{item.age}})', withItem({ 'First Name': 'Zoë', age: 7 }))).toBe(
            'Dear Zoë: short (7)'
        );
    });

    it('renders unknown item fields as empty text, or null as a whole value', () => {
        expect(renderTemplate('[{{item.missing}}]', withItem({ a: 1 }))).toBe('[]');
        expect(renderTemplate('{{item.missing}}', withItem({ a: 1 }))).toBeNull();
        expect(renderTemplate('{{item.constructor}}', withItem({}))).toBeNull();
        expect(renderTemplate('[{{item.__proto__}}]', withItem({}))).toBe('[]');
        expect(renderTemplate('[{{item.length}}]', withItem('a string'))).toBe('[]');
        expect(renderTemplate('{{item.x}}', withItem(null))).toBeNull();
    });

    it('resolves item fields even when the item is undefined or falsy, as long as it is in scope', () => {
        expect(renderTemplate('[{{item}}]', withItem(0))).toBe('[0]');
        expect(renderTemplate('[{{item}}]', { outputs, item: undefined })).toBe('[]');
    });

    it('fails on item references outside forEach', () => {
        expect(templateError(() => renderTemplate('{{item.name}}', scope)).message).toBe(
            '{{item.name}} can only be used while iterating with forEach'
        );
    });

    it('names the reference when its node did not complete', () => {
        const error = templateError(() => renderTemplate('Tags: {{ai2.tags}}', scope));
        expect(error.message).toBe("{{ai2.tags}} refers to node 'ai2', which did not complete successfully");
        expect(error.reference).toBe('{{ai2.tags}}');
        const withStatus: TemplateScope = { outputs, statusOf: () => 'FAILED' };
        expect(templateError(() => renderTemplate('{{x.y}}', withStatus)).message).toBe(
            "{{x.y}} refers to node 'x', which did not complete successfully (its status is FAILED)"
        );
    });

    it('fails on an unknown output of a completed node', () => {
        expect(templateError(() => renderTemplate('{{ai.summry}}', scope)).message).toMatch(
            /output 'summry', which node 'ai' does not have; its outputs are 'summary', 'tags'/
        );
        expect(templateError(() => renderTemplate('{{ds.toString}}', scope)).message).toMatch(/does not have/);
    });

    it('fails cleanly on values that cannot become text', () => {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        const s: TemplateScope = { outputs: new Map([['n', { v: cyclic, big: 10n }]]) };
        expect(templateError(() => renderTemplate('x {{n.v}}', s)).message).toMatch(/\{\{n.v\}\} cannot be written as text/);
        expect(renderTemplate('{{n.v}}', s)).toBe(cyclic);
        expect(renderTemplate('x{{n.big}}', s)).toBe('x10');
    });

    it('handles megabyte strings in linear time', () => {
        const big = 'x'.repeat(1_000_000);
        expect(renderTemplate(big, scope)).toBe(big);
        const many = '{{ai.count}}'.repeat(100_000);
        expect(renderTemplateText(many, scope)).toBe('3'.repeat(100_000));
        expect(templateError(() => parseTemplate(`${'{{'.repeat(500_000)}`)).message).toMatch(/unterminated|unexpected/);
        expect(templateError(() => parseTemplate(`${'a'.repeat(1_000_000)}{{`)).position).toBe(1_000_000);
        expect(renderTemplate('}}'.repeat(500_000), scope)).toBe('}}'.repeat(500_000));
    });

    it('compiles once and renders many times', () => {
        const template = compileTemplate('{{item.n}}-{{ai.count}}');
        const s = { outputs, item: undefined as unknown };
        const rendered = [1, 2, 3].map((n) => {
            s.item = { n };
            return template.render(s);
        });
        expect(rendered).toEqual(['1-3', '2-3', '3-3']);
    });
});

describe('template properties', () => {
    const text = fc.string({ maxLength: 40 }).filter((s) => !s.includes('{{') && !s.endsWith('\\') && !s.startsWith('{') && !s.endsWith('{'));
    const value = fc.oneof(
        fc.string(),
        fc.integer(),
        fc.double({ noNaN: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 })
    );
    const outputName = fc.constantFrom('a', 'b', 'rows', 'First Name', 'x.y');

    it('returns text without {{ unchanged', () => {
        fc.assert(
            fc.property(fc.string({ maxLength: 300 }).filter((s) => !s.includes('{{')), (s) => {
                expect(renderTemplate(s, scope)).toBe(s);
            })
        );
    });

    it('returns the exact value of a whole-string reference', () => {
        fc.assert(
            fc.property(value, outputName, fc.boolean(), (v, name, spaced) => {
                const s: TemplateScope = { outputs: new Map([['node', { [name]: v }]]), item: { [name]: v } };
                const pad = spaced ? '  ' : '';
                expect(renderTemplate(`{{${pad}node.${name}${pad}}}`, s)).toBe(v);
                expect(renderTemplate(`{{${pad}item.${name}${pad}}}`, s)).toBe(v);
            })
        );
    });

    it('renders embedded references as the concatenation of the text and the stringified values', () => {
        const stringify = (v: unknown): string =>
            typeof v === 'string' ? v : v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        fc.assert(
            fc.property(fc.array(fc.tuple(text, value), { minLength: 1, maxLength: 5 }), text, (pieces, tail) => {
                const nodeOutput: Record<string, unknown> = {};
                let template = '';
                let expected = '';
                pieces.forEach(([before, v], i) => {
                    nodeOutput[`o${i}`] = v;
                    template += `${before}{{ n.o${i} }}`;
                    expected += before + stringify(v);
                });
                template += tail;
                expected += tail;
                fc.pre(template !== `{{ n.o0 }}`);
                expect(renderTemplateText(template, { outputs: new Map([['n', nodeOutput]]) })).toBe(expected);
            })
        );
    });
});

describe('rendered text is bounded', () => {
    const big = (rows: unknown[]): TemplateScope => ({ outputs: new Map<string, NodeOutput>([['d', { rows, text: 'x'.repeat(MAX_RENDERED_CHARS) }]]) });

    it('renders up to MAX_RENDERED_CHARS characters, and fails past them naming the reference', () => {
        expect(renderTemplateText('{{d.text}}', big([]))).toHaveLength(MAX_RENDERED_CHARS);
        const error = templateError(() => renderTemplateText('!{{d.text}}', big([])));
        expect(error.message).toMatch(/^the text rendered with \{\{d\.text\}\} is longer than 262,144 characters, the most an e-mail address, subject or body or an AI prompt may be: reference fewer elements/);
        expect(error.reference).toBe('{{d.text}}');
    });

    it('fails a template referencing an array many times once the total passes the bound', () => {
        const rows = Array.from({ length: 5 }, (_, i) => ({ name: `P${i}`, email: `p${i}@example.test` }));
        const once = renderTemplateText('{{d.rows}}', big(rows)).length;
        const fits = Math.floor(MAX_RENDERED_CHARS / once);
        expect(renderTemplateText('{{d.rows}}'.repeat(fits), big(rows))).toHaveLength(fits * once);
        expect(templateError(() => renderTemplateText('{{d.rows}}'.repeat(fits + 1), big(rows))).reference).toBe('{{d.rows}}');
    });

    it('stops writing a huge array as JSON soon after the bound, without reading the rest', () => {
        const total = 1_000_000;
        let read = 0;
        const rows = new Proxy(Array.from({ length: total }, (_, i) => ({ name: `Person ${i}` })), {
            get(target, key, receiver) {
                if (typeof key === 'string' && /^\d+$/.test(key)) read++;
                return Reflect.get(target, key, receiver);
            }
        });
        templateError(() => renderTemplateText('All: {{d.rows}}', big(rows)));
        // Each row writes at least 20 characters ({"name":"Person 0"}): the bound is passed within 262,144 / 20 rows.
        expect(read).toBeLessThan(MAX_RENDERED_CHARS / 15);
        // A whole-string reference is the value itself, not text: no bound applies.
        expect(renderTemplate('{{d.rows}}', big(rows))).toBe(rows);
    });
});
