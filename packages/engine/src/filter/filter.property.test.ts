// Property tests: the evaluator agrees with an independent reference implementation on random
// well-formed expressions over random rows, and nothing but FilterError ever escapes.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FilterError } from '../errors.js';
import { compileFilter } from './index.js';

type Value = string | number | boolean | null;
type Expr =
    | { kind: 'lit'; value: Value }
    | { kind: 'field'; name: string }
    | { kind: 'not'; arg: Expr }
    | { kind: 'bin'; op: '&&' | '||'; left: Expr; right: Expr }
    | { kind: 'cmp'; op: '==' | '!=' | '<' | '<=' | '>' | '>='; left: Expr; right: Expr };

const FIELDS = ['a', 'b', 'c', 'score', 'constructor'];

const valueArb: fc.Arbitrary<Value> = fc.oneof(
    fc.integer({ min: -50, max: 50 }),
    fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom('', 'a', 'B', 'Paris', "O'Brien", '10', '2.5', '-3', ' 7 ', '007', 'x1', 'é'),
    fc.boolean(),
    fc.constant(null)
);

const exprArb: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => ({
    expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        valueArb.map((value): Expr => ({ kind: 'lit', value })),
        fc.constantFrom(...FIELDS).map((name): Expr => ({ kind: 'field', name })),
        tie('expr').map((arg): Expr => ({ kind: 'not', arg })),
        fc
            .record({ op: fc.constantFrom('&&' as const, '||' as const), left: tie('expr'), right: tie('expr') })
            .map((r): Expr => ({ kind: 'bin', ...r })),
        fc
            .record({
                op: fc.constantFrom('==' as const, '!=' as const, '<' as const, '<=' as const, '>' as const, '>=' as const),
                left: tie('expr'),
                right: tie('expr')
            })
            .map((r): Expr => ({ kind: 'cmp', ...r }))
    )
})).expr;

const rowArb = fc.dictionary(fc.constantFrom(...FIELDS), valueArb, { maxKeys: FIELDS.length });

function print(e: Expr): string {
    switch (e.kind) {
        case 'lit':
            if (typeof e.value === 'string') return `'${e.value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
            if (typeof e.value === 'number') return Object.is(e.value, -0) ? '0' : String(e.value);
            return String(e.value);
        case 'field':
            return e.name;
        case 'not':
            return `!(${print(e.arg)})`;
        case 'bin':
        case 'cmp':
            return `(${print(e.left)} ${e.op} ${print(e.right)})`;
    }
}

// --- reference implementation, written from the documented semantics ---

function refField(row: Record<string, Value>, name: string): unknown {
    return Object.keys(row).includes(name) ? (row[name] ?? null) : null;
}

function refNumber(s: string): number | null {
    const t = s.trim();
    if (t === '' || /[^0-9eE+.-]/.test(t)) return null;
    const n = Number(t);
    return Number.isFinite(n) ? n : null;
}

function refCompare(op: string, x: unknown, y: unknown): boolean {
    let l = x;
    let r = y;
    if (typeof l === 'number' && typeof r === 'string' && refNumber(r) !== null) r = refNumber(r);
    else if (typeof l === 'string' && typeof r === 'number' && refNumber(l) !== null) l = refNumber(l);
    if (op === '==') return l === r;
    if (op === '!=') return l !== r;
    const ordered = (typeof l === 'number' && typeof r === 'number') || (typeof l === 'string' && typeof r === 'string');
    if (!ordered) return false;
    const a = l as number | string;
    const b = r as number | string;
    if (op === '<') return a < b;
    if (op === '<=') return a <= b;
    if (op === '>') return a > b;
    return a >= b;
}

function refEval(e: Expr, row: Record<string, Value>): unknown {
    switch (e.kind) {
        case 'lit':
            return e.value;
        case 'field':
            return refField(row, e.name);
        case 'not':
            return !refEval(e.arg, row);
        case 'bin':
            return e.op === '&&'
                ? Boolean(refEval(e.left, row)) && Boolean(refEval(e.right, row))
                : Boolean(refEval(e.left, row)) || Boolean(refEval(e.right, row));
        case 'cmp':
            return refCompare(e.op, refEval(e.left, row), refEval(e.right, row));
    }
}

describe('filter properties', () => {
    it('agrees with the reference implementation on random expressions and rows', () => {
        fc.assert(
            fc.property(exprArb, fc.array(rowArb, { maxLength: 8 }), (expr, rows) => {
                const predicate = compileFilter(print(expr));
                for (const row of rows) {
                    expect(predicate(row)).toBe(Boolean(refEval(expr, row)));
                }
            }),
            { numRuns: 2000 }
        );
    });

    it('throws nothing but FilterError on arbitrary strings', () => {
        const tokens = fc.constantFrom(
            'a', 'b', '.', '(', ')', '[', ']', "'", '"', '\\', '!', '=', '==', '<', '>', '&&', '||', '&', '|',
            '+', '-', '*', '?', ':', ',', ';', '1', '2.5', 'e', 'this', 'constructor', '__proto__', ' ', '\n', '{', '}', '`', '😀'
        );
        const inputs = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 100 }), fc.array(tokens, { maxLength: 60 }).map((t) => t.join('')));
        fc.assert(
            fc.property(inputs, rowArb, (text, row) => {
                try {
                    compileFilter(text)(row);
                } catch (error) {
                    if (!(error instanceof FilterError)) throw error;
                }
            }),
            { numRuns: 3000 }
        );
    });
});
