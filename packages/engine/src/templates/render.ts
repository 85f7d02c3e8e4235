// Rendering resolves references lazily against the outputs of nodes that completed, so a reference
// to a node that failed or was skipped fails the node that reads it, with a message naming it.

import { errorMessage, TemplateError } from '../errors.js';
import { listNames } from '../text.js';
import type { NodeOutput, NodeStatus } from '../types.js';
import { type ParsedTemplate, parseTemplate, type TemplatePart, type TemplateRef } from './parse.js';

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
}

export interface CompiledTemplate extends ParsedTemplate {
    /** The raw value for a whole-string reference (an array stays an array), else the rendered text. */
    render(scope: TemplateScope): unknown;
    /** Always text: a whole-string reference is stringified like an embedded one. */
    renderText(scope: TemplateScope): string;
}

export function compileTemplate(text: string): CompiledTemplate {
    const parsed = parseTemplate(text);
    const { parts, whole } = parsed;
    if (parsed.refs.length === 0) {
        // Escapes (`\{{`) are already resolved in the text parts.
        const literal = parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
        return { ...parsed, render: () => literal, renderText: () => literal };
    }
    const renderText = (scope: TemplateScope): string => {
        let out = '';
        for (let i = 0; i < parts.length; i++) {
            const part = parts[i] as TemplatePart;
            out += part.kind === 'text' ? part.text : stringifyValue(resolveReference(part.ref, scope), part.ref);
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
    return { ...parsed, render: renderText, renderText };
}

export function renderTemplate(text: string, scope: TemplateScope): unknown {
    return compileTemplate(text).render(scope);
}

export function renderTemplateText(text: string, scope: TemplateScope): string {
    return compileTemplate(text).renderText(scope);
}

/** Missing item fields resolve to `undefined` (rendered as '' in text, null as a whole value). */
export function resolveReference(ref: TemplateRef, scope: TemplateScope): unknown {
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

/** Embedded values: strings as-is, null/undefined as '', arrays and objects as JSON. */
export function stringifyValue(value: unknown, ref?: TemplateRef): string {
    if (typeof value === 'string') return value;
    if (value === null || value === undefined) return '';
    if (typeof value === 'object') {
        try {
            return JSON.stringify(value) ?? '';
        } catch (error) {
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
