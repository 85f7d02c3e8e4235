// Checks the string fields that are read at run time: templates name existing upstream nodes and
// outputs those nodes have, `item` appears only where there is a current element, array references
// are a single reference to an array, and filter expressions parse.

import { FilterError, TemplateError } from '../errors.js';
import { parseFilter } from '../filter/parse.js';
import { type ParsedTemplate, parseTemplate, type TemplateRef } from '../templates/parse.js';
import { closest, listNames, quote, withArticle } from '../text.js';
import type { NodeType } from '../types.js';
import type { Ancestry } from './ancestry.js';
import { STRING_FIELDS } from './node-data.js';
import type { OutputKind } from './outputs.js';

/** A node that passed the per-node checks well enough to be looked at. */
export interface KnownNode {
    index: number;
    id: string;
    type: NodeType;
    data: Record<string, unknown>;
}

export interface ReferenceContext {
    nodes: ReadonlyArray<KnownNode | undefined>;
    byId: ReadonlyMap<string, number>;
    ancestry: Ancestry;
    report(nodeId: string, path: string, message: string): void;
    /** A likely intended node id for a misspelt one, or null. */
    suggestNodeId(id: string): string | null;
    /** Template outputs of the node at `index`. */
    outputsOf(index: number): Map<string, OutputKind>;
    /** Why a filter expression is invalid, or null (memoised and budgeted by the validator). */
    filterProblem(expr: string): string | null;
}

const ITEM_PLACES = "OUTPUT 'to', 'subject', 'body' and 'html', and in the prompt of an AI node that has forEach";
/** Where `{{unsubscribeUrl}}` means something: the parts of an e-mail a recipient reads. */
const MAIL_VAR_FIELDS = ['subject', 'body', 'html'];
const MAIL_VAR_PLACES = "OUTPUT 'subject', 'body' and 'html'";

export function checkReferences(node: KnownNode, ctx: ReferenceContext): void {
    const base = `nodes[${node.index}].data`;
    for (const [field, rule] of Object.entries(STRING_FIELDS[node.type])) {
        const value = node.data[field];
        if (typeof value !== 'string') continue;
        const path = `${base}.${field}`;
        if (rule.use === 'filter') {
            checkFilter(node, value, path, ctx);
        } else if (rule.use === 'text') {
            const parsed = parse(node, value, path, ctx);
            if (parsed === null) continue;
            const itemAllowed =
                node.type === 'OUTPUT' || (node.type === 'AI' && field === 'prompt' && typeof node.data.forEach === 'string');
            const mailAllowed = node.type === 'OUTPUT' && MAIL_VAR_FIELDS.includes(field);
            for (const ref of parsed.refs) {
                if (ref.kind === 'mail') {
                    if (!mailAllowed) ctx.report(node.id, path, `${ref.text} can only be used in ${MAIL_VAR_PLACES}`);
                    continue;
                }
                checkRef(node, ref, path, itemAllowed, null, ctx);
            }
        } else if (rule.use === 'array-reference') {
            checkArrayReference(node, value, path, ctx);
        }
    }
}

function parse(node: KnownNode, text: string, path: string, ctx: ReferenceContext): ParsedTemplate | null {
    try {
        return parseTemplate(text);
    } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        ctx.report(node.id, path, `invalid template: ${error.message}`);
        return null;
    }
}

function checkFilter(node: KnownNode, expr: string, path: string, ctx: ReferenceContext): void {
    const problem = ctx.filterProblem(expr);
    if (problem !== null) ctx.report(node.id, path, problem);
}

/** Parses a filter expression, returning the problem to report or null. */
export function filterExpressionProblem(expr: string): string | null {
    try {
        parseFilter(expr);
        return null;
    } catch (error) {
        if (!(error instanceof FilterError)) throw error;
        return `invalid filter expression: ${error.message}`;
    }
}

function checkArrayReference(node: KnownNode, text: string, path: string, ctx: ReferenceContext): void {
    const field = path.slice(path.lastIndexOf('.') + 1);
    const parsed = parse(node, text.trim(), path, ctx);
    if (parsed === null) return;
    const ref = parsed.whole;
    if (ref === null || ref.kind !== 'node') {
        ctx.report(
            node.id,
            path,
            `'${field}' must be a single reference to an array with nothing around it, such as {{source.rows}}; got ${quote(text)}`
        );
        return;
    }
    checkRef(node, ref, path, false, field, ctx);
}

function checkRef(
    node: KnownNode,
    ref: TemplateRef,
    path: string,
    itemAllowed: boolean,
    arrayField: string | null,
    ctx: ReferenceContext
): void {
    if (ref.kind === 'mail') {
        ctx.report(node.id, path, `${ref.text} can only be used in ${MAIL_VAR_PLACES}`);
        return;
    }
    if (ref.kind === 'item') {
        if (!itemAllowed) ctx.report(node.id, path, `${ref.text} can only be used in ${ITEM_PLACES}`);
        return;
    }
    if (ref.nodeId === node.id) {
        ctx.report(node.id, path, `${ref.text}: a node cannot refer to its own output`);
        return;
    }
    const targetIndex = ctx.byId.get(ref.nodeId);
    if (targetIndex === undefined) {
        const guess = ctx.suggestNodeId(ref.nodeId);
        ctx.report(
            node.id,
            path,
            `${ref.text} refers to node '${ref.nodeId}', which does not exist${guess ? ` (did you mean '${guess}'?)` : ''}`
        );
        return;
    }
    const target = ctx.nodes[targetIndex];
    if (target !== undefined) {
        const outputs = ctx.outputsOf(targetIndex);
        const kind: OutputKind | undefined = outputs.get(ref.output);
        if (kind === undefined) {
            ctx.report(node.id, path, noSuchOutput(ref, target, [...outputs.keys()]));
            return;
        }
        if (arrayField !== null && kind !== 'array') {
            ctx.report(node.id, path, `'${arrayField}' must refer to an array, but ${ref.text} is a ${kind}`);
            return;
        }
    }
    ctx.ancestry.ask(targetIndex, node.index, () =>
        ctx.report(
            node.id,
            path,
            `${ref.text} refers to node '${ref.nodeId}', which is not upstream of '${node.id}': add a path of edges from '${ref.nodeId}' to '${node.id}'`
        )
    );
}

function noSuchOutput(ref: Extract<TemplateRef, { kind: 'node' }>, target: KnownNode, outputs: string[]): string {
    if (outputs.length === 0) {
        return `${ref.text} refers to node '${target.id}', but ${withArticle(target.type)} node has no outputs`;
    }
    const guess = closest(ref.output, outputs);
    return `${ref.text}: node '${target.id}' (${target.type}) has no output '${ref.output}'${guess ? ` (did you mean '${guess}'?)` : ''}; its outputs are ${listNames(outputs)}`;
}
