import { describe, expect, it } from 'vitest';
import { findUnstorableText, toStorableText, toStorableValue, unstorableTextProblem } from './storable.js';

describe('unstorableTextProblem', () => {
    it('accepts ordinary text, including characters beyond the BMP', () => {
        for (const text of ['', 'Hello', 'zoë', '日本語', 'emoji 😀 pair', '\ufffd', 'tab\tand\nnewline']) {
            expect(unstorableTextProblem(text), text).toBeNull();
        }
    });

    it('names NUL and lone surrogates, high or low, anywhere in the text', () => {
        expect(unstorableTextProblem('a\u0000b')).toContain('NUL character (U+0000)');
        expect(unstorableTextProblem('Hello \ud800')).toContain('lone UTF-16 surrogate (U+D800)');
        expect(unstorableTextProblem('\udc00 first')).toContain('(U+DC00)');
        expect(unstorableTextProblem('reversed \ude00\ud83d pair')).toContain('(U+DE00)');
    });
});

describe('toStorableText', () => {
    it('replaces each unstorable unit with U+FFFD and keeps the rest verbatim', () => {
        expect(toStorableText('a\u0000b\ud800c😀\udfff')).toBe('a\ufffdb\ufffdc😀\ufffd');
        const text = 'nothing to do 😀';
        expect(toStorableText(text)).toBe(text);
    });
});

describe('findUnstorableText', () => {
    it('names the path of the first unstorable string or key', () => {
        const graph = { nodes: [{ id: 't' }, { id: 'o', data: { subject: 'Hello \ud800' } }] };
        expect(findUnstorableText({ name: 'x', graph })).toEqual({
            path: 'graph.nodes[1].data.subject',
            message: expect.stringContaining("'graph.nodes[1].data.subject' contains a lone UTF-16 surrogate")
        });
        expect(findUnstorableText({ ai: { 'mo\u0000del': 'x' } })).toEqual({ path: 'ai.mo\u0000del', message: expect.stringContaining("field name in 'ai'") });
        expect(findUnstorableText('\u0000', 'uploadId')?.path).toBe('uploadId');
        expect(findUnstorableText({ fine: ['a', 1, null, true, { b: 'c' }] })).toBeNull();
    });

    it('walks values nested deeper than the call stack would allow', () => {
        let deep: unknown = 'bottom\u0000';
        for (let i = 0; i < 100_000; i++) deep = [deep];
        expect(findUnstorableText(deep)?.message).toContain('NUL');
    });
});

describe('toStorableValue', () => {
    it('repairs strings and keys at every depth and leaves other values alone', () => {
        const reply = { 'k\u0000': ['x\ud800', 2, null, { y: 'z\u0000' }], ok: true };
        const repaired = toStorableValue(reply);
        expect(repaired).toEqual({ 'k\ufffd': ['x\ufffd', 2, null, { y: 'z\ufffd' }], ok: true });
        expect(findUnstorableText(repaired)).toBeNull();
        expect(reply['k\u0000'][0]).toBe('x\ud800');
    });
});
