import { emailAddressProblem, suppressionKey } from '../email.js';
import { errorMessage, TemplateError } from '../errors.js';
import { Slicer } from '../slices.js';
import { compileTemplate, type ItemRef, type TemplateRef } from '../templates/index.js';
import { closest, quote } from '../text.js';
import type { MailMessage, NodeOutput, OutputData, SuppressionCandidate } from '../types.js';
import { itemScope, type NodeHandler, NodeFailure, RunCancelled, resolveArray } from './context.js';

const LISTED_FAILURES = 10;

type Halt = 'cancelled' | { index: number; error: TemplateError } | { bug: unknown };

interface ElementFailure {
    index: number;
    reason: string;
}

/**
 * One e-mail per element. A bad recipient, a template field the element lacks or a transport rejection
 * fails that element only; the others are still sent, then the node fails naming the failed elements
 * (0-based indexes, the same as the delivery keys). An element whose outcome the port says is unknown
 * is no failure: it may have arrived, so the node counts and names it apart (`unknownOutcome`), and it
 * alone fails no node. Up to `ports.mailConcurrency` e-mails are in flight at once, each element
 * keeping its own index, so a slow mail server costs its latency once per batch, not per e-mail.
 */
export const runOutput: NodeHandler = async (node, ctx) => {
    const data = node.data as OutputData;
    const elements = resolveArray(data.forEach, 'forEach', ctx.scope);
    const to = compileTemplate(data.to);
    const subject = compileTemplate(data.subject);
    const body = compileTemplate(data.body);
    const html = typeof data.html === 'string' ? compileTemplate(data.html) : null;
    const fields = itemFields(html === null ? [to, subject, body] : [to, subject, body, html]);
    const unsubscribeUrl = ctx.ports.unsubscribeUrl?.bind(ctx.ports);
    const suppression = suppressionChecker(node.id, elements, to, fields, ctx);
    let suppressed = 0;
    const failures: ElementFailure[] = [];
    /** Indexes of elements whose outcome is unknown. */
    const unknown: number[] = [];
    const total = elements.length;
    let sent = 0;
    /** Elements whose outcome is known. */
    let done = 0;
    let next = 0;
    /** Why no further element starts: the run was cancelled, an element's template failed, or a bug. */
    let halt: Halt | null = null;

    const deliver = async (i: number, scope: ReturnType<typeof itemScope>): Promise<void> => {
        scope.item = elements[i];
        // A field the element lacks would render as '' ("Hi ,"): that element fails instead, as a bad
        // address does. A field present with no value (an empty CSV cell, null) renders empty.
        const absent = absentField(elements[i], fields);
        if (absent !== null) {
            failures.push({ index: i, reason: absent });
            done++;
            return;
        }
        let message: MailMessage;
        try {
            const address = to.renderText(scope).trim();
            const link = unsubscribeUrl !== undefined && emailAddressProblem(address) === null ? unsubscribeUrl(address) : '';
            scope.mail = { unsubscribeUrl: link };
            message = {
                to: address,
                // A line break in a subject would start a new mail header.
                subject: oneLine(subject.renderText(scope)),
                body: body.renderText(scope)
            };
            if (html !== null) message.html = html.renderText(scope, escapeHtml);
            if (link !== '') message.unsubscribeUrl = link;
        } catch (error) {
            halt ??= error instanceof TemplateError ? { index: i, error } : { bug: error };
            return;
        }
        const problem = emailAddressProblem(message.to);
        if (problem !== null) {
            failures.push({
                index: i,
                reason: message.to === '' ? 'empty recipient address' : `invalid recipient address ${quote(message.to, 60)} (${problem})`
            });
            done++;
            return;
        }
        // Asked of the list right before this element's chunk goes: an unsubscribe during the run counts.
        if (suppression !== null && (await suppression(i)).has(i)) {
            ctx.ports.onSuppressed?.(message, { nodeId: node.id, index: i });
            suppressed++;
            ctx.result.suppressed = (ctx.result.suppressed ?? 0) + 1;
            done++;
            return;
        }
        try {
            const answer = await ctx.ports.sendMail(message, { nodeId: node.id, index: i }, ctx.port);
            if (answer === 'unknown') {
                unknown.push(i);
                ctx.result.unknownOutcome = (ctx.result.unknownOutcome ?? 0) + 1;
            }

            if (answer === false || answer === 'unknown') {
                done++;
                return;
            }
        } catch (error) {
            if (ctx.signal.aborted) {
                halt ??= 'cancelled';
                return;
            }
            failures.push({ index: i, reason: `the mail transport rejected it: ${errorMessage(error)}` });
            done++;
            return;
        }
        sent++;
        done++;
        ctx.result.emailsSent++;
    };

    const lane = async (): Promise<void> => {
        const scope = itemScope(ctx.scope);
        // A port that answers at once (a preview's, or one that finds every element sent) would
        // otherwise hold the event loop for the whole array: give way every few milliseconds.
        const slicer = new Slicer();
        while (halt === null && next < total) {
            if (slicer.due) await slicer.pause();
            if (ctx.signal.aborted) {
                halt = 'cancelled';
                return;
            }
            await deliver(next++, scope);
        }
    };
    const lanes = Math.max(1, Math.min(ctx.ports.mailConcurrency ?? 1, total));
    await Promise.all(Array.from({ length: lanes }, lane));

    // Set by the lanes, which TypeScript does not follow.
    const stopped = halt as Halt | null;
    const output: NodeOutput = { emailsSent: sent };
    if (unknown.length > 0) output.unknownOutcome = unknown.length;
    if (suppressed > 0) output.suppressed = suppressed;
    if (stopped === 'cancelled') throw cancelled(done, total, sent, output);
    if (stopped !== null && 'bug' in stopped) throw stopped.bug;
    if (stopped !== null) throw new NodeFailure(`element #${stopped.index}: ${stopped.error.message}`, output);
    if (failures.length > 0) throw new NodeFailure(describeFailures(failures, unknown, total), output);
    return output;
};

const DEFAULT_SUPPRESSION_CHUNK = 500;

/**
 * The suppressed addresses of each chunk of elements, asked of the port once per chunk when the first
 * element of it is about to be sent: one query per chunk rather than per e-mail, and never an answer
 * older than the chunk before. Elements are taken in index order and each looks its chunk up before
 * its first await, so once chunk k is asked for, chunk k-1 is not needed again. Null: no list to check.
 */
function suppressionChecker(
    nodeId: string,
    elements: unknown[],
    to: ReturnType<typeof compileTemplate>,
    fields: ItemRef[],
    ctx: Parameters<NodeHandler>[1]
): ((index: number) => Promise<ReadonlySet<number>>) | null {
    const ask = ctx.ports.suppressed?.bind(ctx.ports);
    if (ask === undefined) return null;
    const size = Math.max(1, ctx.ports.suppressionChunk ?? DEFAULT_SUPPRESSION_CHUNK);
    const scope = itemScope(ctx.scope);
    let current = -1;
    let answer: Promise<ReadonlySet<number>> = Promise.resolve(new Set());
    return (index) => {
        const chunk = Math.floor(index / size);
        if (chunk !== current) {
            current = chunk;
            const candidates: SuppressionCandidate[] = [];
            const end = Math.min(elements.length, (chunk + 1) * size);
            for (let i = chunk * size; i < end; i++) {
                if (absentField(elements[i], fields) !== null) continue;
                scope.item = elements[i];
                try {
                    const address = to.renderText(scope).trim();
                    if (address !== '') candidates.push({ index: i, address: suppressionKey(address) });
                } catch {
                    // The element fails when it is sent, saying why.
                }
            }
            answer = candidates.length === 0 ? Promise.resolve(new Set()) : ask(nodeId, candidates, ctx.port);
        }
        return answer;
    };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A value placed in an HTML part arrives as text: `<script>` shows as written, `&` as `&amp;`. */
function escapeHtml(value: string): string {
    return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] as string);
}

/** Distinct `{{item.<field>}}` references of the templates, in order (not `{{item}}` itself). */
function itemFields(templates: Array<{ refs: TemplateRef[] }>): ItemRef[] {
    const seen = new Map<string, ItemRef>();
    for (const template of templates) {
        for (const ref of template.refs) {
            if (ref.kind === 'item' && ref.field !== null && !seen.has(ref.field)) seen.set(ref.field, ref);
        }
    }
    return [...seen.values()];
}

/** Why the element cannot be written: the first field it does not have, with the nearest it has; or null. */
function absentField(element: unknown, refs: ItemRef[]): string | null {
    if (refs.length === 0) return null;
    const isObject = typeof element === 'object' && element !== null && !Array.isArray(element);
    for (const ref of refs) {
        const field = ref.field as string;
        if (isObject && Object.hasOwn(element, field)) continue;
        if (!isObject) return `${ref.text}: the element is ${element === null ? 'null' : Array.isArray(element) ? 'an array' : `a ${typeof element}`}, not an object with fields`;
        const guess = closest(field, Object.keys(element));
        return `${ref.text}: the element has no field ${quote(field, 60)}${guess === null ? '' : ` (did you mean ${quote(guess, 60)}?)`}`;
    }
    return null;
}

function oneLine(text: string): string {
    return text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]+/g, ' ') : text;
}

function cancelled(done: number, total: number, sent: number, output: NodeOutput): RunCancelled {
    return new RunCancelled(`run cancelled after ${done} of ${total} e-mails (${sent} sent)`, output);
}

function describeFailures(failures: ElementFailure[], unknown: number[], total: number): string {
    failures.sort((a, b) => a.index - b.index);
    const listed = failures.slice(0, LISTED_FAILURES).map((f) => `#${f.index}: ${f.reason}`);
    const more = failures.length > LISTED_FAILURES ? `; and ${failures.length - LISTED_FAILURES} more` : '';
    return `${failures.length} of ${total} e-mails failed: ${listed.join('; ')}${more}${describeUnknown(unknown)}`;
}

/** Said after the failures, apart from them: a user who counts what to send again must not count these. */
function describeUnknown(unknown: number[]): string {
    if (unknown.length === 0) return '';
    unknown.sort((a, b) => a - b);
    const listed = unknown.slice(0, LISTED_FAILURES).map((index) => `#${index}`);
    const more = unknown.length > LISTED_FAILURES ? ` and ${unknown.length - LISTED_FAILURES} more` : '';
    return (
        `. ${unknown.length} more may have arrived and are not counted as failed ` +
        `(a copy went out but its answer was never read, before an interruption or a timeout; a retry does not send them): ${listed.join(', ')}${more}`
    );
}
