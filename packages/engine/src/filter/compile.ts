// Compiles a parsed filter once into a tree of closures, so evaluating a row is a few direct calls
// with no AST walking or operator dispatch. The common `field <op> literal` shapes get fused
// closures because FILTER runs over hundreds of thousands of rows.

import { errorMessage, FilterError } from '../errors.js';
import { type CompareOperator, type FilterAst, parseFilter } from './parse.js';
import { looseEquals, numericValue, order } from './values.js';

export type FilterPredicate = (element: unknown) => boolean;
type Getter = (element: unknown) => unknown;

const hasOwn = Object.hasOwn;

/**
 * Parses and compiles a filter expression. Throws FilterError for anything outside the language;
 * the returned predicate never throws anything but FilterError either.
 */
export function compileFilter(expr: string): FilterPredicate {
    const predicate = toPredicate(parseFilter(expr));
    return (element) => {
        try {
            return predicate(element);
        } catch (error) {
            // Only reachable with exotic elements (e.g. a Proxy whose traps throw).
            throw new FilterError(`the filter could not be evaluated: ${errorMessage(error)}`);
        }
    };
}

/** Own properties only, so `constructor` or `__proto__` never reach Object.prototype. */
function fieldGetter(name: string): Getter {
    return (element) => {
        if (typeof element !== 'object' || element === null) return null;
        const value = (element as Record<string, unknown>)[name];
        return value !== undefined && hasOwn(element, name) ? value : null;
    };
}

function toPredicate(node: FilterAst): FilterPredicate {
    switch (node.type) {
        case 'literal': {
            const constant = Boolean(node.value);
            return () => constant;
        }
        case 'field': {
            const get = fieldGetter(node.name);
            return (element) => Boolean(get(element));
        }
        case 'not': {
            const inner = toPredicate(node.argument);
            return (element) => !inner(element);
        }
        case 'and':
            return conjunction(node.operands.map(toPredicate));
        case 'or':
            return disjunction(node.operands.map(toPredicate));
        case 'compare':
            return comparison(node.operator, node.left, node.right);
    }
}

function toGetter(node: FilterAst): Getter {
    if (node.type === 'literal') {
        const value = node.value;
        return () => value;
    }
    if (node.type === 'field') return fieldGetter(node.name);
    return toPredicate(node);
}

function conjunction(parts: FilterPredicate[]): FilterPredicate {
    const [a, b, c] = parts;
    if (parts.length === 2 && a && b) return (e) => a(e) && b(e);
    if (parts.length === 3 && a && b && c) return (e) => a(e) && b(e) && c(e);
    return (e) => {
        for (let i = 0; i < parts.length; i++) if (!(parts[i] as FilterPredicate)(e)) return false;
        return true;
    };
}

function disjunction(parts: FilterPredicate[]): FilterPredicate {
    const [a, b, c] = parts;
    if (parts.length === 2 && a && b) return (e) => a(e) || b(e);
    if (parts.length === 3 && a && b && c) return (e) => a(e) || b(e) || c(e);
    return (e) => {
        for (let i = 0; i < parts.length; i++) if ((parts[i] as FilterPredicate)(e)) return true;
        return false;
    };
}

const MIRROR: Record<CompareOperator, CompareOperator> = {
    '==': '==',
    '!=': '!=',
    '<': '>',
    '>': '<',
    '<=': '>=',
    '>=': '<='
};

function comparison(operator: CompareOperator, left: FilterAst, right: FilterAst): FilterPredicate {
    if (left.type === 'literal' && right.type === 'field') {
        return comparison(MIRROR[operator], right, left);
    }
    if (left.type === 'field' && right.type === 'literal') {
        const { value } = right;
        if (typeof value === 'number') return fieldVersusNumber(left.name, operator, value);
        if (typeof value === 'string') return fieldVersusString(left.name, operator, value);
    }
    const a = toGetter(left);
    const b = toGetter(right);
    switch (operator) {
        case '==':
            return (e) => looseEquals(a(e), b(e));
        case '!=':
            return (e) => !looseEquals(a(e), b(e));
        case '<':
            return (e) => order(a(e), b(e)) === -1;
        case '>':
            return (e) => order(a(e), b(e)) === 1;
        case '<=': {
            return (e) => {
                const o = order(a(e), b(e));
                return o === -1 || o === 0;
            };
        }
        case '>=': {
            return (e) => {
                const o = order(a(e), b(e));
                return o === 1 || o === 0;
            };
        }
    }
}

/** `field <op> 30`: the hot path. A string field compares numerically when it is numeric. */
function fieldVersusNumber(name: string, operator: CompareOperator, k: number): FilterPredicate {
    const get = fieldGetter(name);
    const test = comparisonTest(operator, k);
    // Values that are not comparable with a number satisfy only !=.
    const otherwise = operator === '!=';
    return (e) => {
        const v = get(e);
        if (typeof v === 'number') return test(v);
        if (typeof v === 'string') {
            const n = numericValue(v);
            if (n !== null) return test(n);
        }
        return otherwise;
    };
}

/** `v <op> k` for two numbers or two strings (strings compare by code unit, as JavaScript does). */
function comparisonTest<T extends number | string>(operator: CompareOperator, k: T): (v: T) => boolean {
    switch (operator) {
        case '==':
            return (v) => v === k;
        case '!=':
            return (v) => v !== k;
        case '<':
            return (v) => v < k;
        case '>':
            return (v) => v > k;
        case '<=':
            return (v) => v <= k;
        case '>=':
            return (v) => v >= k;
    }
}

/** `field <op> 'Paris'`. A number field meets a numeric string literal numerically. */
function fieldVersusString(name: string, operator: CompareOperator, k: string): FilterPredicate {
    const get = fieldGetter(name);
    const asNumber = numericValue(k);
    const stringTest = comparisonTest(operator, k);
    const numberTestForK = asNumber === null ? null : comparisonTest(operator, asNumber);
    const otherwise = operator === '!=';
    return (e) => {
        const v = get(e);
        if (typeof v === 'string') return stringTest(v);
        if (typeof v === 'number' && numberTestForK !== null) return numberTestForK(v);
        return otherwise;
    };
}
