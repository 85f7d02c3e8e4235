import { emailAddressProblem } from '../email.js';
import { errorMessage, TemplateError } from '../errors.js';
import { compileTemplate } from '../templates/index.js';
import { quote } from '../text.js';
import type { OutputData } from '../types.js';
import { itemScope, type NodeHandler, NodeFailure, RunCancelled, resolveArray } from './context.js';

const LISTED_FAILURES = 10;

interface ElementFailure {
    index: number;
    reason: string;
}

/**
 * One e-mail per element. A bad recipient or a transport rejection fails that element only; the
 * others are still sent, then the node fails naming the failed elements (0-based indexes, the same
 * as the delivery keys).
 */
export const runOutput: NodeHandler = async (node, ctx) => {
    const data = node.data as OutputData;
    const elements = resolveArray(data.forEach, 'forEach', ctx.scope);
    const to = compileTemplate(data.to);
    const subject = compileTemplate(data.subject);
    const body = compileTemplate(data.body);
    const scope = itemScope(ctx.scope);
    const failures: ElementFailure[] = [];
    const total = elements.length;
    let sent = 0;
    for (let i = 0; i < total; i++) {
        if (ctx.signal.aborted) throw cancelled(i, total, sent);
        scope.item = elements[i];
        let message: { to: string; subject: string; body: string };
        try {
            message = {
                to: to.renderText(scope).trim(),
                // A line break in a subject would start a new mail header.
                subject: oneLine(subject.renderText(scope)),
                body: body.renderText(scope)
            };
        } catch (error) {
            if (error instanceof TemplateError) {
                throw new NodeFailure(`element #${i}: ${error.message}`, { emailsSent: sent });
            }
            throw error;
        }
        const problem = emailAddressProblem(message.to);
        if (problem !== null) {
            failures.push({
                index: i,
                reason: message.to === '' ? 'empty recipient address' : `invalid recipient address ${quote(message.to, 60)} (${problem})`
            });
            continue;
        }
        try {
            await ctx.ports.sendMail(message, { nodeId: node.id, index: i }, ctx.port);
        } catch (error) {
            if (ctx.signal.aborted) throw cancelled(i, total, sent);
            failures.push({ index: i, reason: `the mail transport rejected it: ${errorMessage(error)}` });
            continue;
        }
        sent++;
        ctx.result.emailsSent++;
    }
    if (failures.length > 0) throw new NodeFailure(describeFailures(failures, total), { emailsSent: sent });
    return { emailsSent: sent };
};

function oneLine(text: string): string {
    return text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]+/g, ' ') : text;
}

function cancelled(done: number, total: number, sent: number): RunCancelled {
    return new RunCancelled(`run cancelled after ${done} of ${total} e-mails (${sent} sent)`, { emailsSent: sent });
}

function describeFailures(failures: ElementFailure[], total: number): string {
    const listed = failures.slice(0, LISTED_FAILURES).map((f) => `#${f.index}: ${f.reason}`);
    const more = failures.length > LISTED_FAILURES ? `; and ${failures.length - LISTED_FAILURES} more` : '';
    return `${failures.length} of ${total} e-mails failed: ${listed.join('; ')}${more}`;
}
