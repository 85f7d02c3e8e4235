// Template syntax: `{{ node.output }}` and `{{ item.field }}`.
//
// Inside the braces the text is trimmed and split on its FIRST dot: the left side is a node id or
// `item`, the right side is the output or field name taken verbatim (trimmed), so CSV headers with
// spaces, dots or accents work: `{{item.First Name}}`. `{{item}}` alone is the whole element.
// A backslash right before `{{` makes it literal: `\{{` renders `{{`. Braces cannot appear inside
// a reference.

import { TemplateError } from '../errors.js';
import { quote } from '../text.js';

export interface NodeRef {
    kind: 'node';
    nodeId: string;
    output: string;
    /** Canonical spelling, `{{node.output}}`, used in messages. */
    text: string;
    /** Offsets of the reference (braces included) in the template. */
    start: number;
    end: number;
}

export interface ItemRef {
    kind: 'item';
    /** null for `{{item}}`, the whole element. */
    field: string | null;
    text: string;
    start: number;
    end: number;
}

/** A value the OUTPUT node gives each e-mail: `{{unsubscribeUrl}}`. */
export interface MailVarRef {
    kind: 'mail';
    name: MailVar;
    text: string;
    start: number;
    end: number;
}

/** Names usable alone in braces, in OUTPUT 'subject', 'body' and 'html' only. */
export const MAIL_VARS = ['unsubscribeUrl'] as const;
export type MailVar = (typeof MAIL_VARS)[number];

export type TemplateRef = NodeRef | ItemRef | MailVarRef;

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'ref'; ref: TemplateRef };

export interface ParsedTemplate {
    source: string;
    parts: TemplatePart[];
    refs: TemplateRef[];
    /** Set when the whole string is exactly one reference: rendering then yields the raw value. */
    whole: TemplateRef | null;
}

const OPEN = '{{';
const CLOSE = '}}';

export function parseTemplate(text: string): ParsedTemplate {
    if (typeof text !== 'string') throw new TemplateError('a template must be a string');
    const parts: TemplatePart[] = [];
    const refs: TemplateRef[] = [];
    let literal = '';
    let cursor = 0;
    for (;;) {
        const open = text.indexOf(OPEN, cursor);
        if (open === -1) break;
        if (open > 0 && text.charCodeAt(open - 1) === 92 /* \ */) {
            literal += text.slice(cursor, open - 1) + OPEN;
            cursor = open + OPEN.length;
            continue;
        }
        const close = text.indexOf(CLOSE, open + OPEN.length);
        if (close === -1) {
            throw new TemplateError(
                `unterminated '{{' at character ${open + 1}: close the reference with '}}', or write '\\{{' for a literal '{{'`,
                { position: open }
            );
        }
        literal += text.slice(cursor, open);
        if (literal !== '') {
            parts.push({ kind: 'text', text: literal });
            literal = '';
        }
        const ref = parseReference(text.slice(open + OPEN.length, close), open, close + CLOSE.length);
        parts.push({ kind: 'ref', ref });
        refs.push(ref);
        cursor = close + CLOSE.length;
    }
    literal += text.slice(cursor);
    if (literal !== '') parts.push({ kind: 'text', text: literal });
    const only = parts.length === 1 ? parts[0] : undefined;
    return { source: text, parts, refs, whole: only?.kind === 'ref' ? only.ref : null };
}

function parseReference(inner: string, start: number, end: number): TemplateRef {
    const at = `at character ${start + 1}`;
    const brace = inner.search(/[{}]/);
    if (brace !== -1) {
        throw new TemplateError(`unexpected '${inner[brace]}' inside a reference ${at}: references cannot be nested`, {
            position: start + OPEN.length + brace
        });
    }
    const body = inner.trim();
    if (body === '') {
        throw new TemplateError(`empty reference '{{}}' ${at}: write {{node.output}} or {{item.field}}`, {
            position: start
        });
    }
    const dot = body.indexOf('.');
    if (dot === -1) {
        if (body === 'item') return { kind: 'item', field: null, text: '{{item}}', start, end };
        if ((MAIL_VARS as readonly string[]).includes(body)) return { kind: 'mail', name: body as MailVar, text: `{{${body}}}`, start, end };
        throw new TemplateError(
            `reference ${quote(`{{${body}}}`)} ${at} names no output: write {{${body}.<output>}} or {{item.<field>}}`,
            { reference: `{{${body}}}`, position: start }
        );
    }
    const left = body.slice(0, dot).trim();
    const right = body.slice(dot + 1).trim();
    if (left === '' || right === '') {
        throw new TemplateError(
            `reference ${quote(`{{${body}}}`)} ${at} is incomplete: write {{node.output}} or {{item.field}}`,
            { reference: `{{${body}}}`, position: start }
        );
    }
    const canonical = `{{${left}.${right}}}`;
    if (left === 'item') return { kind: 'item', field: right, text: canonical, start, end };
    return { kind: 'node', nodeId: left, output: right, text: canonical, start, end };
}

/** References in a template, in order of appearance. Throws TemplateError when it does not parse. */
export function templateRefs(text: string): TemplateRef[] {
    return parseTemplate(text).refs;
}
