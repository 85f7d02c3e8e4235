// Typed errors, so callers can tell a user's mistake (bad template, bad filter, bad graph)
// from a bug without parsing messages.

export class EngineError extends Error {
    constructor(message: string) {
        super(message);
        this.name = new.target.name;
    }
}

/** A template that cannot be parsed, or a reference that cannot be resolved at run time. */
export class TemplateError extends EngineError {
    /** The reference as written in canonical form (`{{node.output}}`), when the error is about one. */
    readonly reference: string | null;
    /** 0-based character offset in the template text, when known. */
    readonly position: number | null;

    constructor(message: string, options: { reference?: string | null; position?: number | null } = {}) {
        super(message);
        this.reference = options.reference ?? null;
        this.position = options.position ?? null;
    }
}

/** The only error compileFilter() and the predicates it returns ever throw. */
export class FilterError extends EngineError {
    /** 0-based character offset in the expression, when known. */
    readonly position: number | null;

    constructor(message: string, position: number | null = null) {
        super(message);
        this.position = position;
    }
}

/** planGraph() was given a graph that validateGraph() would have rejected. */
export class GraphError extends EngineError {}

export class GraphCycleError extends GraphError {
    /** Node ids along one cycle, in edge order; the first node is repeated implicitly. */
    readonly cycle: string[];

    constructor(cycle: string[]) {
        super(`the graph has a cycle: ${[...cycle, cycle[0]].map((id) => `'${id}'`).join(' -> ')}`);
        this.cycle = cycle;
    }
}

/** Turns anything thrown (including non-Errors) into a readable message. */
export function errorMessage(error: unknown): string {
    if (error instanceof Error) return error.message || error.name;
    if (typeof error === 'string') return error || 'unknown error';
    try {
        const json = JSON.stringify(error);
        if (json !== undefined) return json;
    } catch {
        // fall through: cyclic or BigInt values
    }
    try {
        return String(error);
    } catch {
        return 'unknown error';
    }
}
