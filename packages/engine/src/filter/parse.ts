// The filter language is a whitelist over jsep's JavaScript-expression AST: comparisons, && || !,
// parentheses, number/string/boolean/null literals and bare field names. Everything else is
// rejected here, once, with a message naming the construct and its position.

import { FilterError } from '../errors.js';
import { quote } from '../text.js';
import { isJsepSyntaxError, type JsepNode, parseWithJsep, type Span } from './jsep.js';

export type CompareOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type FilterAst =
    | { type: 'literal'; value: string | number | boolean | null }
    | { type: 'field'; name: string }
    | { type: 'not'; argument: FilterAst }
    | { type: 'compare'; operator: CompareOperator; left: FilterAst; right: FilterAst }
    | { type: 'and' | 'or'; operands: FilterAst[] };

export const MAX_FILTER_LENGTH = 10_000;
export const MAX_FILTER_DEPTH = 100;

const COMPARE_OPERATORS = new Set<string>(['==', '!=', '<', '<=', '>', '>=']);

const OPERATOR_HINTS: Record<string, string> = {
    '===': "use '==' (comparisons are already strict)",
    '!==': "use '!=' (comparisons are already strict)",
    '=': "use '==' to compare",
    '&': "did you mean '&&'?",
    '|': "did you mean '||'?",
    '??': "compare with null instead, e.g. field != null"
};

export function parseFilter(expr: string): FilterAst {
    if (typeof expr !== 'string') throw new FilterError('a filter expression must be a string');
    if (expr.length > MAX_FILTER_LENGTH) {
        throw new FilterError(
            `the filter expression is ${expr.length} characters long; the limit is ${MAX_FILTER_LENGTH}`
        );
    }
    if (expr.trim() === '') throw new FilterError('the filter expression is empty');
    prescan(expr);
    let parsed: ReturnType<typeof parseWithJsep>;
    try {
        parsed = parseWithJsep(expr);
    } catch (error) {
        throw translateSyntaxError(expr, error);
    }
    checkDepth(parsed.ast);
    return new Converter(expr, parsed.spans).convert(parsed.ast);
}

/**
 * Rejects, before jsep recurses into them, inputs that would only be caught by a stack overflow:
 * deep brackets and long runs of prefix operators. Also rejects separators jsep would silently skip.
 */
function prescan(expr: string): void {
    let depth = 0;
    let operatorRun = 0;
    let quoteCode = 0;
    for (let i = 0; i < expr.length; i++) {
        const c = expr.charCodeAt(i);
        if (quoteCode !== 0) {
            if (c === 92 /* \ */) i++;
            else if (c === quoteCode) quoteCode = 0;
            continue;
        }
        switch (c) {
            case 39 /* ' */:
            case 34 /* " */:
                quoteCode = c;
                operatorRun = 0;
                break;
            case 40 /* ( */:
            case 91 /* [ */:
                if (++depth > MAX_FILTER_DEPTH) {
                    throw new FilterError(`brackets are nested deeper than ${MAX_FILTER_DEPTH} levels ${at(i)}`, i);
                }
                break;
            case 41 /* ) */:
            case 93 /* ] */:
                if (depth > 0) depth--;
                operatorRun = 0;
                break;
            case 33 /* ! */:
            case 45 /* - */:
            case 43 /* + */:
            case 126 /* ~ */:
                if (++operatorRun > MAX_FILTER_DEPTH) {
                    throw new FilterError(`more than ${MAX_FILTER_DEPTH} operators in a row ${at(i)}`, i);
                }
                break;
            case 44 /* , */:
            case 59 /* ; */:
                throw new FilterError(`'${expr[i]}' is not allowed ${at(i)}: combine conditions with && or ||`, i);
            case 96 /* ` */:
                throw new FilterError(`backquotes are not allowed ${at(i)}: write strings in single quotes`, i);
            case 32:
            case 9:
            case 10:
            case 13:
                break;
            default:
                operatorRun = 0;
        }
    }
}

function at(index: number): string {
    return `(at character ${index + 1})`;
}

function translateSyntaxError(expr: string, error: unknown): FilterError {
    if (error instanceof RangeError) {
        return new FilterError('the filter expression is nested too deeply');
    }
    if (!isJsepSyntaxError(error)) {
        return new FilterError(`cannot parse the filter expression: ${(error as Error)?.message ?? String(error)}`);
    }
    const description = error.description.charAt(0).toLowerCase() + error.description.slice(1);
    const c = expr[error.index];
    let hint = '';
    if (c === '?') hint = ': conditional expressions (a ? b : c) are not supported';
    else if (c === '=') hint = ": use '==' to compare";
    else if (c === '{') hint = ': object literals are not supported';
    else if (c === '}' || c === ')' || c === ']') hint = ': check that brackets are balanced';
    const at = error.index >= expr.length ? 'at the end' : `at character ${error.index + 1}`;
    return new FilterError(`cannot parse the filter expression: ${description} ${at}${hint}`, error.index);
}

/** Children of any jsep node, including the kinds the whitelist rejects (so depth is checked first). */
function childrenOf(node: JsepNode): JsepNode[] {
    switch (node.type) {
        case 'Literal':
        case 'Identifier':
        case 'ThisExpression':
            return [];
        case 'BinaryExpression':
            return [node.left as JsepNode, node.right as JsepNode];
        case 'UnaryExpression':
            return [node.argument as JsepNode];
        case 'MemberExpression':
            return [node.object as JsepNode, node.property as JsepNode];
        case 'CallExpression':
            return [node.callee as JsepNode, ...(node.arguments as JsepNode[])];
        case 'ArrayExpression':
            return (node.elements as Array<JsepNode | null>).filter((e): e is JsepNode => e !== null);
        case 'Compound':
            return node.body as JsepNode[];
        case 'SequenceExpression':
            return node.expressions as JsepNode[];
        default: {
            const children: JsepNode[] = [];
            for (const value of Object.values(node)) {
                if (Array.isArray(value)) {
                    for (const v of value) if (isNode(v)) children.push(v);
                } else if (isNode(value)) {
                    children.push(value);
                }
            }
            return children;
        }
    }
}

function isNode(value: unknown): value is JsepNode {
    return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function isChain(node: JsepNode, operator: string): boolean {
    return node.type === 'BinaryExpression' && node.operator === operator;
}

/** Iterative, so a deep AST is reported rather than overflowing; a chain of one && or || is one level. */
function checkDepth(root: JsepNode): void {
    const stack: Array<[JsepNode, number]> = [[root, 1]];
    while (stack.length > 0) {
        const [node, depth] = stack.pop() as [JsepNode, number];
        if (depth > MAX_FILTER_DEPTH) {
            throw new FilterError(`the filter expression is nested deeper than ${MAX_FILTER_DEPTH} levels`);
        }
        const chainOperator =
            node.type === 'BinaryExpression' && (node.operator === '&&' || node.operator === '||')
                ? (node.operator as string)
                : null;
        for (const child of childrenOf(node)) {
            stack.push([child, chainOperator !== null && isChain(child, chainOperator) ? depth : depth + 1]);
        }
    }
}

class Converter {
    constructor(
        private readonly expr: string,
        private readonly spans: Map<object, Span>
    ) {}

    convert(node: JsepNode): FilterAst {
        switch (node.type) {
            case 'Literal':
                return this.literal(node);
            case 'Identifier':
                return { type: 'field', name: node.name as string };
            case 'UnaryExpression':
                return this.unary(node);
            case 'BinaryExpression':
                return this.binary(node);
            case 'ThisExpression':
                throw this.reject(node, "'this' is not allowed: refer to a field by its bare name, e.g. age > 30");
            case 'MemberExpression':
                throw this.reject(
                    node,
                    `member access ${this.snippet(node)} is not allowed: refer to a field by its bare name`
                );
            case 'CallExpression':
                throw this.reject(node, `function calls such as ${this.snippet(node)} are not allowed`);
            case 'ArrayExpression':
                throw this.reject(node, 'array literals are not allowed');
            case 'Compound':
                throw this.reject(
                    (node.body as JsepNode[])[1] ?? node,
                    'expected an operator between two expressions: join conditions with && or ||'
                );
            default:
                throw this.reject(node, `${node.type} is not allowed in a filter expression`);
        }
    }

    private literal(node: JsepNode): FilterAst {
        const value = node.value;
        if (typeof value === 'number' && !Number.isFinite(value)) {
            throw this.reject(node, `the number ${String(node.raw)} is out of range`);
        }
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) {
            return { type: 'literal', value };
        }
        throw this.reject(node, `the literal ${String(node.raw)} is not allowed`);
    }

    private unary(node: JsepNode): FilterAst {
        const operator = node.operator as string;
        const argument = node.argument as JsepNode;
        if (operator === '!') return { type: 'not', argument: this.convert(argument) };
        if (operator === '-' && argument.type === 'Literal' && typeof argument.value === 'number') {
            return { type: 'literal', value: argument.value === 0 ? 0 : -argument.value };
        }
        if (operator === '-') {
            throw this.reject(node, "unary '-' is only allowed before a number, e.g. -5");
        }
        throw this.reject(node, `the operator '${operator}' is not allowed; the operators are > < >= <= == != && || !`);
    }

    private binary(node: JsepNode): FilterAst {
        const operator = node.operator as string;
        const left = node.left as JsepNode;
        const right = node.right as JsepNode;
        if (operator === '&&' || operator === '||') {
            // Flatten the chain with an explicit stack: jsep builds long chains as deep left spines.
            const operands: FilterAst[] = [];
            const stack: JsepNode[] = [node];
            while (stack.length > 0) {
                const current = stack.pop() as JsepNode;
                if (isChain(current, operator)) stack.push(current.right as JsepNode, current.left as JsepNode);
                else operands.push(this.convert(current));
            }
            return { type: operator === '&&' ? 'and' : 'or', operands };
        }
        if (COMPARE_OPERATORS.has(operator)) {
            return {
                type: 'compare',
                operator: operator as CompareOperator,
                left: this.convert(left),
                right: this.convert(right)
            };
        }
        const position = this.expr.indexOf(operator, this.spanOf(left).end);
        const at = position === -1 ? '' : ` (at character ${position + 1})`;
        const hint =
            OPERATOR_HINTS[operator] ??
            (['+', '-', '*', '/', '%', '**'].includes(operator)
                ? 'arithmetic is not supported; a filter only compares values'
                : 'the operators are > < >= <= == != && || !');
        return this.fail(`the operator '${operator}'${at} is not allowed: ${hint}`, position === -1 ? null : position);
    }

    private fail(message: string, position: number | null): never {
        throw new FilterError(message, position);
    }

    private reject(node: JsepNode, message: string): FilterError {
        const { start } = this.spanOf(node);
        return new FilterError(`${message} (at character ${start + 1})`, start);
    }

    private snippet(node: JsepNode): string {
        const { start, end } = this.spanOf(node);
        return quote(this.expr.slice(start, end).trim(), 40);
    }

    /** Binary nodes have no recorded span: take it from their outermost leaves, walking iteratively. */
    private spanOf(node: JsepNode): Span {
        let first: JsepNode = node;
        while (first.type === 'BinaryExpression') first = first.left as JsepNode;
        let last: JsepNode = node;
        while (last.type === 'BinaryExpression') last = last.right as JsepNode;
        const start = this.spans.get(first)?.start ?? 0;
        const end = this.spans.get(last)?.end ?? this.expr.length;
        return { start, end };
    }
}
