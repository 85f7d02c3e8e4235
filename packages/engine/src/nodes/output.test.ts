import { describe, expect, it } from 'vitest';
import { executeRun } from '../executor.js';
import { chain, output, source, trigger } from '../graph/fixtures.test-helpers.js';
import type { Graph, NodeState, Row } from '../types.js';
import { fakePorts, people, recorder } from './fake-ports.test-helpers.js';

function mailGraph(fields: Partial<{ to: string; subject: string; body: string }> = {}): Graph {
    return {
        nodes: [trigger(), source(), output('mail', '{{ds.rows}}', fields), source('after', 'up-2')],
        edges: [...chain('start', 'ds', 'mail', 'after')]
    };
}

function node(outcome: { nodes: NodeState[] }, id: string): NodeState {
    return outcome.nodes.find((n) => n.nodeId === id) as NodeState;
}

const rows = (...emails: Array<string | null>): Row[] => emails.map((email, i) => ({ name: `P${i}`, email }));

describe('OUTPUT', () => {
    it('does not count an element the ports report as delivered by another run', async () => {
        const ports = fakePorts({ rows: { 'up-1': rows('a@example.com', 'b@example.com', 'c@example.com') } });
        const send = ports.sendMail;
        ports.sendMail = async (message, key, ctx) => (key.index === 1 ? false : send(message, key, ctx));
        const outcome = await executeRun(mailGraph(), { ports, resume: [] });
        expect(ports.sent.map((s) => s.key.index)).toEqual([0, 2]);
        expect(node(outcome, 'mail')).toMatchObject({ status: 'SUCCESS', output: { emailsSent: 2 } });
        expect(outcome.result.emailsSent).toBe(2);
    });

    it('counts an element whose outcome the ports report unknown apart: neither sent nor failed', async () => {
        const ports = fakePorts({
            rows: { 'up-1': rows('a@example.com', 'b@example.com', 'c@example.com', 'd@example.com') },
            beforeSend: (message) => {
                if (message.to === 'd@example.com') throw new Error('550 mailbox unavailable');
            }
        });
        const send = ports.sendMail;
        ports.sendMail = async (message, key, ctx) => (key.index === 1 || key.index === 2 ? 'unknown' : send(message, key, ctx));
        const outcome = await executeRun(mailGraph(), { ports });
        expect(node(outcome, 'mail')).toMatchObject({
            status: 'FAILED',
            output: { emailsSent: 1, unknownOutcome: 2 },
            error:
                '1 of 4 e-mails failed: #3: the mail transport rejected it: 550 mailbox unavailable. 2 more may have arrived and are not counted as failed ' +
                '(a copy went out but its answer was never read, before an interruption or a timeout; a retry does not send them): #1, #2'
        });
        expect(outcome.result).toMatchObject({ emailsSent: 1, unknownOutcome: 2 });
    });

    it('does not fail for elements whose outcome is unknown alone, but says how many there are', async () => {
        const ports = fakePorts({ rows: { 'up-1': rows('a@example.com', 'b@example.com'), 'up-2': [] } });
        const send = ports.sendMail;
        ports.sendMail = async (message, key, ctx) => (key.index === 0 ? 'unknown' : send(message, key, ctx));
        const outcome = await executeRun(mailGraph(), { ports });
        expect(node(outcome, 'mail')).toMatchObject({ status: 'SUCCESS', error: null, output: { emailsSent: 1, unknownOutcome: 1 } });
        expect(outcome.status).toBe('SUCCESS');
        expect(outcome.result).toMatchObject({ emailsSent: 1, unknownOutcome: 1 });
    });

    it('sends the valid e-mails and fails the node naming each failed element', async () => {
        const ports = fakePorts({
            rows: { 'up-1': rows('a@example.com', 'bob@', 'c@example.com', null, '  d@example.com ', 'e@example.com', 'Eve <e@x.com>') },
            beforeSend: (message) => {
                if (message.to === 'e@example.com') throw new Error('550 mailbox unavailable');
            }
        });
        const outcome = await executeRun(mailGraph(), { ports });
        expect(ports.sent.map((s) => [s.key.index, s.message.to])).toEqual([
            [0, 'a@example.com'],
            [2, 'c@example.com'],
            [4, 'd@example.com']
        ]);
        expect(outcome.status).toBe('FAILED');
        expect(node(outcome, 'mail')).toMatchObject({
            status: 'FAILED',
            output: { emailsSent: 3 },
            error:
                "4 of 7 e-mails failed: #1: invalid recipient address 'bob@' (the domain is invalid); #3: empty recipient address; " +
                '#5: the mail transport rejected it: 550 mailbox unavailable; ' +
                "#6: invalid recipient address 'Eve <e@x.com>' (write the bare address, without a display name or angle brackets)"
        });
        expect(node(outcome, 'after').status).toBe('SKIPPED');
        expect(outcome.result.emailsSent).toBe(3);
    });

    it('tells the ports of each element failed before the transport, with its address when it has one', async () => {
        const people: Row[] = [
            { name: 'Ann', email: 'ann@example.com', city: 'Paris' },
            { name: 'Bob', email: 'bob@', city: 'Rome' },
            { name: 'Cy', email: null, city: 'Oslo' },
            { name: 'Dee', email: 'dee@example.com' },
            { name: 'Eve', city: 'Nice' }
        ];
        const ports = fakePorts({ rows: { 'up-1': people, 'up-2': [] } });
        const failed: unknown[] = [];
        ports.mailFailed = (key, failure) => {
            failed.push([key, failure.to, failure.reason]);
        };
        await executeRun(mailGraph({ body: 'From {{item.city}}' }), { ports });
        expect(ports.sent.map((s) => s.key)).toEqual([{ nodeId: 'mail', index: 0, elements: 5 }]);
        expect(failed).toEqual([
            [{ nodeId: 'mail', index: 1, elements: 5 }, 'bob@', "invalid recipient address 'bob@' (the domain is invalid)"],
            [{ nodeId: 'mail', index: 2, elements: 5 }, null, 'empty recipient address'],
            [{ nodeId: 'mail', index: 3, elements: 5 }, 'dee@example.com', "{{item.city}}: the element has no field 'city'"],
            [{ nodeId: 'mail', index: 4, elements: 5 }, null, "{{item.email}}: the element has no field 'email'"]
        ]);
    });

    it('fails without sending when a body would render past MAX_RENDERED_CHARS (a small workflow naming a whole list again and again)', async () => {
        const ports = fakePorts({ rows: { 'up-1': rows('a@example.com', 'b@example.com', 'c@example.com') } });
        const outcome = await executeRun(mailGraph({ body: '{{ds.rows}}'.repeat(10_000) }), { ports });
        expect(ports.sent).toEqual([]);
        expect(node(outcome, 'mail')).toMatchObject({ status: 'FAILED', output: { emailsSent: 0 } });
        expect(node(outcome, 'mail').error).toMatch(/^element #0: the text rendered with \{\{ds\.rows\}\} is longer than 262,144 characters/);
    });

    it('lists at most ten failures', async () => {
        const ports = fakePorts({ rows: { 'up-1': rows(...Array.from({ length: 25 }, (_, i) => (i === 3 ? 'ok@example.com' : `bad${i}`))) } });
        const outcome = await executeRun(mailGraph(), { ports });
        const error = node(outcome, 'mail').error as string;
        expect(error).toMatch(/^24 of 25 e-mails failed: #0: invalid recipient address 'bad0'/);
        expect(error.match(/#\d+:/g)).toHaveLength(10);
        expect(error).toMatch(/#10: .*; and 14 more$/);
        expect(outcome.result.emailsSent).toBe(1);
    });

    it('renders item fields, node outputs and raw values, and keeps subjects on one line', async () => {
        const ports = fakePorts({ rows: { 'up-1': [{ name: 'Ann\r\nBcc: x@y.z', email: 'ann@example.com', n: 3, tags: ['a'], empty: null }] as unknown as Row[], 'up-2': [] } });
        const outcome = await executeRun(
            mailGraph({ subject: 'Hi {{item.name}}', body: '{{item.n}} {{item.tags}} {{item.empty}}|{{ds.rows}}', to: '{{item.email}}' }),
            { ports }
        );
        expect(outcome.status).toBe('SUCCESS');
        expect(ports.sent[0]?.message).toEqual({
            to: 'ann@example.com',
            subject: 'Hi Ann Bcc: x@y.z',
            body: '3 ["a"] |[{"name":"Ann\\r\\nBcc: x@y.z","email":"ann@example.com","n":3,"tags":["a"],"empty":null}]'
        });
    });

    it('fails an element that lacks a field its templates read, sends the others, and renders a present empty field as empty', async () => {
        const people: Row[] = [
            { name: 'Ann', email: 'ann@example.com', city: 'Paris' },
            { name: 'Bob', email: 'bob@example.com' },
            { name: null, email: 'cy@example.com', city: null },
            { nmae: 'Dee', email: 'dee@example.com', city: 'Oslo' }
        ];
        const ports = fakePorts({ rows: { 'up-1': people, 'up-2': [] } });
        const outcome = await executeRun(mailGraph({ subject: 'Hi {{item.name}}', body: 'From {{item.city}}' }), { ports });
        expect(ports.sent.map((s) => [s.key.index, s.message.subject, s.message.body])).toEqual([
            [0, 'Hi Ann', 'From Paris'],
            [2, 'Hi ', 'From ']
        ]);
        expect(outcome.status).toBe('FAILED');
        expect(node(outcome, 'mail')).toMatchObject({
            status: 'FAILED',
            output: { emailsSent: 2 },
            error: "2 of 4 e-mails failed: #1: {{item.city}}: the element has no field 'city'; #3: {{item.name}}: the element has no field 'name' (did you mean 'nmae'?)"
        });
        expect(outcome.result.emailsSent).toBe(2);
    });

    it('does not check {{item}} itself, nor templates without item fields', async () => {
        const ports = fakePorts({ rows: { 'up-1': rows('a@example.com'), 'up-2': [] } });
        const outcome = await executeRun(mailGraph({ to: 'ops@example.com', subject: 'Row', body: '{{item}}' }), { ports });
        expect(outcome.status).toBe('SUCCESS');
        expect(ports.sent[0]?.message.body).toBe('{"name":"P0","email":"a@example.com"}');
    });

    it('accepts a whole-value recipient and a fixed one', async () => {
        const ports = fakePorts({ rows: { 'up-1': rows('a@example.com', 'b@example.com'), 'up-2': [] } });
        expect((await executeRun(mailGraph({ to: 'ops@example.com' }), { ports })).status).toBe('SUCCESS');
        expect(ports.sent.map((s) => s.message.to)).toEqual(['ops@example.com', 'ops@example.com']);
    });

    it('stops at the next element when the run is cancelled, and skips the rest', async () => {
        const controller = new AbortController();
        const ten = rows(...Array.from({ length: 10 }, (_, i) => `p${i}@example.com`));
        const ports = fakePorts({
            rows: { 'up-1': ten, 'up-2': [] },
            beforeSend: (_message, key) => {
                if (key.index === 2) controller.abort();
            }
        });
        const rec = recorder();
        const outcome = await executeRun(mailGraph(), { ports, signal: controller.signal, hooks: rec.hooks, now: rec.now });
        expect(outcome.status).toBe('CANCELLED');
        expect(ports.sent).toHaveLength(3);
        expect(node(outcome, 'mail')).toMatchObject({ status: 'FAILED', error: 'run cancelled after 3 of 10 e-mails (3 sent)', output: { emailsSent: 3 } });
        expect(node(outcome, 'after')).toMatchObject({ status: 'SKIPPED', startedAt: null, completedAt: null, error: null });
        expect(outcome.result.emailsSent).toBe(3);
        expect(rec.transitions().slice(-2)).toEqual(['mail:FAILED', 'after:SKIPPED']);
        expect(ports.signals[0]).toBe(controller.signal);
    });

    it('treats a transport error caused by cancellation as cancellation', async () => {
        const controller = new AbortController();
        const ports = fakePorts({
            rows: { 'up-1': rows('a@example.com', 'b@example.com') },
            beforeSend: (_m, key, ctx) => {
                if (key.index === 1) {
                    controller.abort();
                    throw ctx.signal.reason;
                }
            }
        });
        const outcome = await executeRun(mailGraph(), { ports, signal: controller.signal });
        expect(outcome.status).toBe('CANCELLED');
        expect(node(outcome, 'mail').error).toBe('run cancelled after 1 of 2 e-mails (1 sent)');
    });

    it('fails when forEach does not resolve to an array', async () => {
        const graph: Graph = {
            nodes: [trigger(), { id: 'ai', type: 'AI', data: { prompt: 'p', output: [{ name: 'list', type: 'array' }] } }, output('mail', '{{ai.list}}')],
            edges: chain('start', 'ai', 'mail')
        };
        const outcome = await executeRun(graph, { ports: fakePorts({ reply: () => ({ list: ['a'] }) }) });
        expect(node(outcome, 'mail').error).toBe('1 of 1 e-mails failed: #0: {{item.email}}: the element is a string, not an object with fields');
        const previous = outcome.nodes.map((n) => (n.nodeId === 'ai' ? { ...n, output: { list: 'nope' } } : n));
        const resumed = await executeRun(graph, { ports: fakePorts(), resume: previous });
        expect(node(resumed, 'mail').error).toBe("'forEach' {{ai.list}} must resolve to an array, got a string");
    });

    it('sends nothing and succeeds on an empty array', async () => {
        const ports = fakePorts({ rows: { 'up-1': [], 'up-2': [] } });
        const outcome = await executeRun(mailGraph(), { ports });
        expect(outcome.status).toBe('SUCCESS');
        expect(node(outcome, 'mail').output).toEqual({ emailsSent: 0 });
        expect(people).toHaveLength(3);
    });

    describe('with several e-mails in flight (ports.mailConcurrency)', () => {
        /** Sends that wait until the test lets them go, so the test sees how many are in flight. */
        const held = (concurrency: number, emails: string[], reject: (to: string) => boolean = () => false) => {
            const waiting: Array<() => void> = [];
            let inFlight = 0;
            let peak = 0;
            const ports = fakePorts({
                rows: { 'up-1': rows(...emails), 'up-2': [] },
                beforeSend: async (message) => {
                    inFlight++;
                    peak = Math.max(peak, inFlight);
                    await new Promise<void>((resolve) => waiting.push(resolve));
                    inFlight--;
                    if (reject(message.to)) throw new Error(`550 no ${message.to}`);
                }
            });
            ports.mailConcurrency = concurrency;
            /** Lets every waiting send go, until none is left. */
            const drain = async () => {
                for (;;) {
                    await new Promise((resolve) => setImmediate(resolve));
                    const batch = waiting.splice(0);
                    if (batch.length === 0) return;
                    for (const go of batch) go();
                }
            };
            return { ports, waiting, drain, peak: () => peak };
        };

        it('keeps at most that many sends in flight, and records each outcome by its index', async () => {
            const emails = Array.from({ length: 10 }, (_, i) => (i === 4 ? 'bad@' : `p${i}@example.com`));
            const { ports, drain, peak } = held(3, emails, (to) => to === 'p7@example.com' || to === 'p2@example.com');
            const rec = recorder();
            const running = executeRun(mailGraph(), { ports, hooks: rec.hooks });
            await drain();
            const outcome = await running;
            expect(peak()).toBe(3);
            expect(ports.sent.map((s) => s.key.index).sort((a, b) => a - b)).toEqual([0, 1, 3, 5, 6, 8, 9]);
            for (const s of ports.sent) expect(s.message.to).toBe(`p${s.key.index}@example.com`);
            expect(node(outcome, 'mail')).toMatchObject({
                status: 'FAILED',
                output: { emailsSent: 7 },
                error:
                    "3 of 10 e-mails failed: #2: the mail transport rejected it: 550 no p2@example.com; #4: invalid recipient address 'bad@' (the domain is invalid); " +
                    '#7: the mail transport rejected it: 550 no p7@example.com'
            });
            expect(outcome.result.emailsSent).toBe(7);
        });

        it('starts no element after a cancel, and counts only what was accepted', async () => {
            const controller = new AbortController();
            const { ports, waiting } = held(4, Array.from({ length: 10 }, (_, i) => `p${i}@example.com`));
            ports.sendMail = async (message, key, ctx) => {
                await new Promise<void>((resolve, reject) => {
                    waiting.push(resolve);
                    ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
                });
                ports.sent.push({ message, key });
            };
            const running = executeRun(mailGraph(), { ports, signal: controller.signal });
            while (waiting.length < 4) await new Promise((resolve) => setImmediate(resolve));
            for (const go of waiting.splice(0, 2)) go();
            while (waiting.length < 4) await new Promise((resolve) => setImmediate(resolve));
            controller.abort();
            const outcome = await running;
            expect(outcome.status).toBe('CANCELLED');
            expect(ports.sent.map((s) => s.key.index)).toEqual([0, 1]);
            expect(node(outcome, 'mail')).toMatchObject({ error: 'run cancelled after 2 of 10 e-mails (2 sent)', output: { emailsSent: 2 } });
            expect(outcome.result.emailsSent).toBe(2);
        });
    });
});
