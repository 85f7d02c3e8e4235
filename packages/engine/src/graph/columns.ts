// checkColumns(): every `{{item.x}}` and every FILTER field name is checked against the columns that
// can reach it, so that `Hi {{item.nmae}}` or `subscribd == true` is refused when the workflow is
// saved instead of sending "Hi " to everyone (or filtering everyone out). The columns of an upload are
// known when the workflow is saved; they travel along the graph:
//
//   DATA_SOURCE `rows`      the upload's header (the caller says what it is; null = unknown)
//   FILTER `items`          its source's columns (a filter keeps elements whole)
//   AI (forEach) `items`    its forEach's columns plus the declared output names
//   anything else           unknown (a Drive file, inbound rows, an AI array output): not checked
//
// Pure and tolerant: it is given graphs that may also have failed validateGraph(), and it skips what
// it cannot make sense of rather than reporting it twice.

import { FilterError, TemplateError } from '../errors.js';
import { type FilterAst, parseFilter } from '../filter/parse.js';
import { parseTemplate, type TemplateRef } from '../templates/parse.js';
import { closest, listNames } from '../text.js';
import type { GraphNode, GraphProblem } from '../types.js';

/** What the caller knows about the rows of a DATA_SOURCE: the header, and how to name it in a message. */
export interface ColumnSource {
    columns: readonly string[];
    /** E.g. `upload contacts.csv`: completes "no such column in …". */
    label: string;
}

/** The columns of a DATA_SOURCE node's rows, or null when they are not known before a run. */
export type ColumnsOf = (node: GraphNode<'DATA_SOURCE'>) => ColumnSource | null;

export interface ColumnProblem extends GraphProblem {
    nodeId: string;
    /** The name no source has, as written (`nmae`). */
    field: string;
    /** The nearest name by edit distance, if one is close. */
    suggestion: string | null;
}

/** Names listed in a message when no name is close; more are summarised. */
const LISTED = 20;

interface Shape {
    names: readonly string[];
    set: ReadonlySet<string>;
    /** `upload contacts.csv`, or with AI fields added `upload contacts.csv or the outputs of AI node 'tag'`. */
    label: string;
    /** `column` while every name is a CSV column, `field` once an AI node added some. */
    word: 'column' | 'field';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);

export function checkColumns(graph: unknown, columnsOf: ColumnsOf): ColumnProblem[] {
    return new ColumnChecker(graph, columnsOf).run();
}

class ColumnChecker {
    private readonly nodes: Array<{ index: number; node: GraphNode }> = [];
    private readonly byId = new Map<string, { index: number; node: GraphNode }>();
    private readonly shapes = new Map<string, Shape | null>();
    private readonly visiting = new Set<string>();
    private readonly problems: ColumnProblem[] = [];

    constructor(
        graph: unknown,
        private readonly columnsOf: ColumnsOf
    ) {
        const nodes = isRecord(graph) && Array.isArray(graph.nodes) ? graph.nodes : [];
        nodes.forEach((node: unknown, index) => {
            if (!isRecord(node) || typeof node.id !== 'string' || typeof node.type !== 'string' || !isRecord(node.data)) return;
            const entry = { index, node: node as unknown as GraphNode };
            this.nodes.push(entry);
            if (!this.byId.has(node.id)) this.byId.set(node.id, entry);
        });
    }

    run(): ColumnProblem[] {
        for (const { index, node } of this.nodes) {
            const data = node.data as Record<string, unknown>;
            const base = `nodes[${index}].data`;
            if (node.type === 'OUTPUT') {
                const shape = this.shapeOfReference(data.forEach);
                if (shape === null) continue;
                for (const field of ['to', 'subject', 'body', 'html']) this.checkTemplate(node, data[field], `${base}.${field}`, field, shape);
            } else if (node.type === 'AI' && typeof data.forEach === 'string') {
                const shape = this.shapeOfReference(data.forEach);
                if (shape !== null) this.checkTemplate(node, data.prompt, `${base}.prompt`, 'prompt', shape);
            } else if (node.type === 'FILTER') {
                const shape = this.shapeOfReference(data.source);
                if (shape !== null) this.checkFilter(node, data.expr, `${base}.expr`, shape);
            }
        }
        return this.problems;
    }

    private checkTemplate(node: GraphNode, text: unknown, path: string, field: string, shape: Shape): void {
        const refs = templateRefsOrNull(text);
        if (refs === null) return;
        const seen = new Set<string>();
        for (const ref of refs) {
            if (ref.kind !== 'item' || ref.field === null || shape.set.has(ref.field) || seen.has(ref.field)) continue;
            seen.add(ref.field);
            this.report(node, path, ref.field, `${ref.text} in '${field}' of node '${node.id}'`, shape);
        }
    }

    private checkFilter(node: GraphNode, expr: unknown, path: string, shape: Shape): void {
        if (typeof expr !== 'string') return;
        let ast: FilterAst;
        try {
            ast = parseFilter(expr);
        } catch (error) {
            if (error instanceof FilterError) return; // validateGraph() reports it
            throw error;
        }
        for (const name of fieldNames(ast)) {
            if (!shape.set.has(name)) this.report(node, path, name, `'${name}' in the filter of node '${node.id}'`, shape);
        }
    }

    private report(node: GraphNode, path: string, field: string, where: string, shape: Shape): void {
        const suggestion = nearest(field, shape.names);
        const hint =
            suggestion !== null
                ? `did you mean '${suggestion}'?`
                : shape.names.length === 0
                  ? `it has no ${shape.word}s`
                  : `its ${shape.word}s are ${listNames(shape.names.slice(0, LISTED))}${shape.names.length > LISTED ? ` and ${shape.names.length - LISTED} more` : ''}`;
        this.problems.push({
            nodeId: node.id,
            path,
            field,
            suggestion,
            message: `${where}: no such ${shape.word} in ${shape.label}; ${hint}`
        });
    }

    /** The element shape of an array reference such as `{{ds.rows}}`; null when unknown. */
    private shapeOfReference(text: unknown): Shape | null {
        if (typeof text !== 'string') return null;
        let whole: TemplateRef | null;
        try {
            whole = parseTemplate(text.trim()).whole;
        } catch (error) {
            if (error instanceof TemplateError) return null;
            throw error;
        }
        if (whole === null || whole.kind !== 'node') return null;
        return this.shapeOf(whole.nodeId, whole.output);
    }

    private shapeOf(nodeId: string, output: string): Shape | null {
        const key = `${nodeId}\u0000${output}`;
        if (this.shapes.has(key)) return this.shapes.get(key) as Shape | null;
        // A cycle is validateGraph()'s to report; here it is simply unknown.
        if (this.visiting.has(key)) return null;
        this.visiting.add(key);
        const shape = this.computeShape(nodeId, output);
        this.visiting.delete(key);
        this.shapes.set(key, shape);
        return shape;
    }

    private computeShape(nodeId: string, output: string): Shape | null {
        const entry = this.byId.get(nodeId);
        if (entry === undefined) return null;
        const { node } = entry;
        const data = node.data as Record<string, unknown>;
        if (node.type === 'DATA_SOURCE' && output === 'rows') {
            const source = this.columnsOf(node as GraphNode<'DATA_SOURCE'>);
            return source === null ? null : shape(source.columns, source.label, 'column');
        }
        if (node.type === 'FILTER' && output === 'items') return this.shapeOfReference(data.source);
        if (node.type === 'AI' && output === 'items' && typeof data.forEach === 'string') {
            const base = this.shapeOfReference(data.forEach);
            if (base === null) return null;
            const declared = Array.isArray(data.output)
                ? data.output.flatMap((field: unknown) => (isRecord(field) && typeof field.name === 'string' ? [field.name] : []))
                : [];
            // An element that is not an object becomes {value} first; every element of a known source is a row object.
            const names = [...base.names, ...declared.filter((name) => !base.set.has(name))];
            return shape(names, `${base.label} or the outputs of AI node '${node.id}'`, 'field');
        }
        return null;
    }
}

/**
 * The closest name by edit distance, unless it has no letter in common with `field`: any one-letter
 * name is one edit from any other, and `a` is no typo of `n`.
 */
function nearest(field: string, names: readonly string[]): string | null {
    const guess = closest(field, names);
    if (guess === null) return null;
    const letters = new Set(field.toLowerCase());
    return [...guess.toLowerCase()].some((char) => letters.has(char)) ? guess : null;
}

function shape(names: readonly string[], label: string, word: Shape['word']): Shape {
    return { names, set: new Set(names), label, word };
}

function templateRefsOrNull(text: unknown): TemplateRef[] | null {
    if (typeof text !== 'string') return null;
    try {
        return parseTemplate(text).refs;
    } catch (error) {
        if (error instanceof TemplateError) return null; // validateGraph() reports it
        throw error;
    }
}

/** Distinct field names an expression reads, in order of appearance. */
export function fieldNames(ast: FilterAst): string[] {
    const names = new Set<string>();
    const stack: FilterAst[] = [ast];
    while (stack.length > 0) {
        const node = stack.pop() as FilterAst;
        switch (node.type) {
            case 'field':
                names.add(node.name);
                break;
            case 'not':
                stack.push(node.argument);
                break;
            case 'compare':
                stack.push(node.right, node.left);
                break;
            case 'and':
            case 'or':
                for (let i = node.operands.length - 1; i >= 0; i--) stack.push(node.operands[i] as FilterAst);
                break;
            default:
                break;
        }
    }
    return [...names];
}
