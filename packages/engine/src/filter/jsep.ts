// jsep keeps its grammar (operators, literals, hooks, plugins) in static, process-wide state that any
// other library in the process may change. We therefore install a private configuration for the
// duration of one synchronous parse and put the previous one back afterwards: nothing we configure
// leaks out, and nothing configured elsewhere leaks in.
//
// The private grammar deliberately still parses JavaScript operators the filter language rejects
// (`===`, `+`, `=`, bitwise...), so the whitelist in parse.ts can name them with a hint instead of
// jsep reporting an opaque "Unexpected" error.

import jsep from 'jsep';

export type JsepNode = jsep.Expression;

export interface Span {
    start: number;
    end: number;
}

export interface JsepParse {
    ast: JsepNode;
    /** Source span of every token-level node (identifiers, literals, member/call chains, unary). */
    spans: Map<object, Span>;
}

/** The error jsep throws: a plain Error with these two extra fields. */
export interface JsepSyntaxError extends Error {
    index: number;
    description: string;
}

interface JsepScope {
    index: number;
    readonly code: number;
    gobbleNumericLiteral(): JsepNode;
}

interface HookEnv {
    node?: JsepNode | false;
    context?: JsepScope;
}

type Hook = (this: JsepScope, env: HookEnv) => void;

interface JsepStatics {
    unary_ops: Record<string, number>;
    binary_ops: Record<string, number>;
    max_unop_len: number;
    max_binop_len: number;
    right_associative: Set<string>;
    additional_identifier_chars: Set<string>;
    literals: Record<string, unknown>;
    this_str: string;
    hooks: unknown;
    parse(expr: string): JsepNode;
}

const Jsep = (jsep as unknown as { Jsep: JsepStatics }).Jsep;

const CONFIG_KEYS = [
    'unary_ops',
    'binary_ops',
    'max_unop_len',
    'max_binop_len',
    'right_associative',
    'additional_identifier_chars',
    'literals',
    'this_str',
    'hooks'
] as const;

type JsepConfig = Pick<JsepStatics, (typeof CONFIG_KEYS)[number]>;

const UNARY_OPS: Record<string, number> = { '!': 1, '-': 1, '+': 1, '~': 1 };
// JavaScript precedences, plus `=` so that `a = 1` parses and can be answered with "use ==".
const BINARY_OPS: Record<string, number> = {
    '=': 0.5,
    '||': 1,
    '??': 1,
    '&&': 2,
    '|': 3,
    '^': 4,
    '&': 5,
    '==': 6,
    '!=': 6,
    '===': 6,
    '!==': 6,
    '<': 7,
    '>': 7,
    '<=': 7,
    '>=': 7,
    '<<': 8,
    '>>': 8,
    '>>>': 8,
    '+': 9,
    '-': 9,
    '*': 10,
    '/': 10,
    '%': 10,
    '**': 11
};

function isNumberStart(code: number): boolean {
    return (code >= 48 && code <= 57) || code === 46;
}

function privateConfig(spans: Map<object, Span>): JsepConfig {
    const starts: number[] = [];
    // Numbers bypass jsep's after-token hook, so we gobble them ourselves to record their span too.
    const gobbleToken: Hook = function (env) {
        starts.push(this.index);
        if (isNumberStart(this.code)) env.node = this.gobbleNumericLiteral();
    };
    const afterToken: Hook = function (env) {
        const start = starts.pop();
        if (env.node && start !== undefined) spans.set(env.node, { start, end: this.index });
    };
    const hooks = {
        'gobble-token': [gobbleToken],
        'after-token': [afterToken],
        run(name: string, env: HookEnv): void {
            const list = (hooks as unknown as Record<string, Hook[] | undefined>)[name] ?? [];
            for (const hook of list) hook.call(env.context as JsepScope, env);
        }
    };
    return {
        unary_ops: UNARY_OPS,
        binary_ops: BINARY_OPS,
        max_unop_len: 1,
        max_binop_len: 3,
        right_associative: new Set(['**']),
        additional_identifier_chars: new Set(['$', '_']),
        literals: { true: true, false: false, null: null },
        this_str: 'this',
        hooks
    };
}

/** Parses with the private grammar. Throws jsep's own errors (see JsepSyntaxError) or a RangeError. */
export function parseWithJsep(expr: string): JsepParse {
    const spans = new Map<object, Span>();
    const saved = {} as Record<string, unknown>;
    const statics = Jsep as unknown as Record<string, unknown>;
    for (const key of CONFIG_KEYS) saved[key] = statics[key];
    Object.assign(Jsep, privateConfig(spans));
    try {
        return { ast: Jsep.parse(expr), spans };
    } finally {
        Object.assign(Jsep, saved);
    }
}

export function isJsepSyntaxError(error: unknown): error is JsepSyntaxError {
    return (
        error instanceof Error &&
        typeof (error as Partial<JsepSyntaxError>).index === 'number' &&
        typeof (error as Partial<JsepSyntaxError>).description === 'string'
    );
}
