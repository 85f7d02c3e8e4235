// Rendering resolves references lazily against the outputs of nodes that completed, so a reference
// to a node that failed or was skipped fails the node that reads it, with a message naming it.

import { errorMessage, TemplateError } from '../errors.js';
import { listNames } from '../text.js';
import type { NodeOutput, NodeStatus } from '../types.js';
import { type MailVar, type ParsedTemplate, parseTemplate, type TemplatePart, type TemplateRef } from './parse.js';

export interface TemplateScope {
    /** Outputs of the nodes that completed successfully, by node id. Nothing else is resolvable. */
    readonly outputs: ReadonlyMap<string, NodeOutput>;
    /**
     * The current forEach element. `{{item.*}}` resolves only when this key is present on the scope
     * object (`'item' in scope`), whatever its value.
     */
    readonly item?: unknown;
    /** Status of a node missing from `outputs`, used to say why a reference cannot be resolved. */
    readonly statusOf?: (nodeId: string) => NodeStatus | undefined;
    /** Per-e-mail values of an OUTPUT node (`{{unsubscribeUrl}}`); absent elsewhere. */
    readonly mail?: Readonly<Record<MailVar, string>>;
}

/**
 * The most characters a template renders as text: an e-mail's address, subject or body, an AI prompt.
 * A workflow of 1 MiB can reference a whole upload thousands of times, and each e-mail under way would
 * hold what that renders: past this, rendering stops, and the node fails saying so.
 */
export const MAX_RENDERED_CHARS = 262_144;

export interface CompiledTemplate extends ParsedTemplate {
    /** The raw value for a whole-string reference (an array stays an array), else the rendered text. */
    render(scope: TemplateScope): unknown;
    /**
     * Always text: a whole-string reference is stringified like an embedded one. `escapeValue`, when given,
     * is applied to every value a reference puts in (an HTML part's), never to the template's own text.
     */
    renderText(scope: TemplateScope, escapeValue?: (value: string) => string): string;
}

export function compileTemplate(text: string): CompiledTemplate {
    const parsed = parseTemplate(text);
    const { parts, whole } = parsed;
    if (parsed.refs.length === 0) {
        // Escapes (`\{{`) are already resolved in the text parts.
        const literal = parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
        return { ...parsed, render: () => literal, renderText: () => literal };
    }
    const renderText = (scope: TemplateScope, escapeValue?: (value: string) => string): string => {
        let out = '';
        for (let i = 0; i < parts.length; i++) {
            const part = parts[i] as TemplatePart;
            const budget = MAX_RENDERED_CHARS - out.length;
            let piece = part.kind === 'text' ? part.text : stringifyValue(resolveReference(part.ref, scope), part.ref, budget);
            if (escapeValue !== undefined && part.kind === 'ref') piece = escapeValue(piece);
            if (piece.length > budget) {
                throw tooLong(part.kind === 'ref' ? part.ref : null);
            }
            out += piece;
        }
        return out;
    };
    if (whole !== null) {
        return {
            ...parsed,
            render: (scope) => {
                const value = resolveReference(whole, scope);
                return value === undefined ? null : value;
            },
            renderText
        };
    }
    return { ...parsed, render: (scope) => renderText(scope), renderText };
}

export function renderTemplate(text: string, scope: TemplateScope): unknown {
    return compileTemplate(text).render(scope);
}

export function renderTemplateText(text: string, scope: TemplateScope): string {
    return compileTemplate(text).renderText(scope);
}

/** Missing item fields resolve to `undefined` (rendered as '' in text, null as a whole value). */
export function resolveReference(ref: TemplateRef, scope: TemplateScope): unknown {
    if (ref.kind === 'mail') {
        const value = scope.mail?.[ref.name];
        if (value === undefined) {
            throw new TemplateError(`${ref.text} can only be used in OUTPUT 'subject', 'body' and 'html'`, {
                reference: ref.text,
                position: ref.start
            });
        }
        return value;
    }
    if (ref.kind === 'item') {
        if (!('item' in scope)) {
            throw new TemplateError(`${ref.text} can only be used while iterating with forEach`, {
                reference: ref.text,
                position: ref.start
            });
        }
        const item = scope.item;
        if (ref.field === null) return item;
        if (typeof item !== 'object' || item === null || !Object.hasOwn(item, ref.field)) return undefined;
        return (item as Record<string, unknown>)[ref.field];
    }
    const output = scope.outputs.get(ref.nodeId);
    if (output === undefined) {
        const status = scope.statusOf?.(ref.nodeId);
        const why = status === undefined ? '' : ` (its status is ${status})`;
        throw new TemplateError(
            `${ref.text} refers to node '${ref.nodeId}', which did not complete successfully${why}`,
            { reference: ref.text, position: ref.start }
        );
    }
    if (!Object.hasOwn(output, ref.output)) {
        throw new TemplateError(
            `${ref.text} refers to output '${ref.output}', which node '${ref.nodeId}' does not have; its outputs are ${listNames(Object.keys(output))}`,
            { reference: ref.text, position: ref.start }
        );
    }
    return output[ref.output];
}

const tooLong = (ref: TemplateRef | null): TemplateError =>
    new TemplateError(
        `the text rendered${ref === null ? '' : ` with ${ref.text}`} is longer than ${MAX_RENDERED_CHARS.toLocaleString('en')} characters, the most an e-mail address, subject or body or an AI prompt may be: reference fewer elements (a node's count, or one item's fields) or less text`,
        { reference: ref?.text ?? null, position: ref?.start ?? null }
    );

/** Thrown from JSON.stringify's replacer to stop it once its output is sure to pass the budget. */
const OVER_BUDGET = Symbol('over budget');

/**
 * Embedded values: strings as-is, null/undefined as '', arrays and objects as JSON. With `budget`,
 * JSON is given up (the template error saying so) once it is sure to be longer: a reference to a
 * million rows costs what the budget allows, not the whole array's text.
 */
export function stringifyValue(value: unknown, ref?: TemplateRef, budget = Number.POSITIVE_INFINITY): string {
    if (typeof value === 'string') return value;
    if (value === null || value === undefined) return '';
    if (typeof value === 'object') {
        try {
            if (budget === Number.POSITIVE_INFINITY) return JSON.stringify(value) ?? '';
            // What the output holds at least: each object key written with its quotes and colon, each
            // string with its quotes, a character for any other value (an array writes no keys; the root
            // is counted as a key of 3 characters it does not have).
            let least = 0;
            return (
                JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
                    if (v !== undefined && typeof v !== 'function') {
                        least += (Array.isArray(this) ? 0 : key.length + 3) + (typeof v === 'string' ? v.length + 2 : 1);
                        if (least > budget + 3) throw OVER_BUDGET;
                    }
                    return v;
                }) ?? ''
            );
        } catch (error) {
            if (error === OVER_BUDGET) throw tooLong(ref ?? null);
            const what = ref === undefined ? 'a value' : ref.text;
            throw new TemplateError(`${what} cannot be written as text: ${errorMessage(error)}`, {
                reference: ref?.text ?? null,
                position: ref?.start ?? null
            });
        }
    }
    if (typeof value === 'function') return '';
    return String(value);
}
