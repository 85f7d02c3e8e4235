// OUTPUT and recipients' consent: the suppression list asked per chunk of elements at send time,
// `{{unsubscribeUrl}}`, and the HTML part whose values are escaped.
import { describe, expect, it } from 'vitest';
import { executeRun } from '../executor.js';
import { chain, output, source, trigger } from '../graph/fixtures.test-helpers.js';
import { checkColumns } from '../graph/columns.js';
import { validateGraph } from '../graph/validate.js';
import type { Graph, NodeState, Row } from '../types.js';
import { fakePorts } from './fake-ports.test-helpers.js';

function mailGraph(fields: Record<string, string> = {}): Graph {
    return { nodes: [trigger(), source(), output('mail', '{{ds.rows}}', fields)], edges: [...chain('start', 'ds', 'mail')] };
}

const node = (outcome: { nodes: NodeState[] }, id: string): NodeState => outcome.nodes.find((n) => n.nodeId === id) as NodeState;
const rows = (...emails: string[]): Row[] => emails.map((email, i) => ({ name: `P${i}`, email }));

describe('OUTPUT suppression', () => {
    it('leaves suppressed addresses out, whatever their case and spaces, counting them apart from sent and failed', async () => {
        const ports = fakePorts({ rows: { 'up-1': rows('a@example.com', ' B@Example.COM ', 'c@example.com') } });
        ports.suppressed = async (_nodeId, elements) => new Set(elements.filter((e) => e.address === 'b@example.com').map((e) => e.index));
        const seen: number[] = [];
        ports.onSuppressed = (_message, key) => seen.push(key.index);
        const outcome = await executeRun(mailGraph(), { ports });
        expect(ports.sent.map((s) => s.message.to)).toEqual(['a@example.com', 'c@example.com']);
        expect(seen).toEqual([1]);
        expect(node(outcome, 'mail')).toMatchObject({ status: 'SUCCESS', output: { emailsSent: 2, suppressed: 1 } });
        expect(outcome.result).toMatchObject({ emailsSent: 2, suppressed: 1 });
    });

    it('asks once per chunk, right before the chunk is sent: an address suppressed during the run is not mailed after', async () => {
        const emails = Array.from({ length: 10 }, (_, i) => `p${i}@example.com`);
        const list = new Set<string>();
        const asked: string[][] = [];
        const ports = fakePorts({
            rows: { 'up-1': rows(...emails) },
            // p8 unsubscribes while the first e-mail goes out.
            beforeSend: (message) => {
                if (message.to === 'p0@example.com') list.add('p8@example.com');
            }
        });
        ports.suppressionChunk = 4;
        ports.suppressed = async (_nodeId, elements) => {
            asked.push(elements.map((e) => e.address));
            return new Set(elements.filter((e) => list.has(e.address)).map((e) => e.index));
        };
        const outcome = await executeRun(mailGraph(), { ports });
        expect(asked).toEqual([emails.slice(0, 4), emails.slice(4, 8), emails.slice(8)]);
        expect(ports.sent.map((s) => s.message.to)).not.toContain('p8@example.com');
        expect(outcome.result).toMatchObject({ emailsSent: 9, suppressed: 1 });
    });

    it('sends nothing of a chunk whose list cannot be read', async () => {
        const ports = fakePorts({ rows: { 'up-1': rows('a@example.com') } });
        ports.suppressed = async () => {
            throw new Error('the store is unavailable');
        };
        const outcome = await executeRun(mailGraph(), { ports });
        expect(ports.sent).toEqual([]);
        expect(outcome.status).toBe('FAILED');
    });
});

describe('OUTPUT unsubscribe link and HTML part', () => {
    const html = '<p>Hi {{item.name}}</p><a href="{{unsubscribeUrl}}">unsubscribe</a>';

    it('renders {{unsubscribeUrl}} per recipient in subject, body and html, and hands the link to the port', async () => {
        const ports = fakePorts({ rows: { 'up-1': [{ name: '<script>alert(1)</script> & co', email: 'a@example.com' }] } });
        ports.unsubscribeUrl = (to) => `https://x.test/u/${to}?a=1&b=2`;
        await executeRun(mailGraph({ subject: 'S {{unsubscribeUrl}}', body: 'Bye: {{unsubscribeUrl}}', html }), { ports });
        const [sent] = ports.sent;
        expect(sent?.message).toEqual({
            to: 'a@example.com',
            subject: 'S https://x.test/u/a@example.com?a=1&b=2',
            body: 'Bye: https://x.test/u/a@example.com?a=1&b=2',
            html: '<p>Hi &lt;script&gt;alert(1)&lt;/script&gt; &amp; co</p><a href="https://x.test/u/a@example.com?a=1&amp;b=2">unsubscribe</a>',
            unsubscribeUrl: 'https://x.test/u/a@example.com?a=1&b=2'
        });
    });

    it('checks the columns html reads, as those of subject and body', () => {
        const problems = checkColumns(mailGraph({ html: '<p>{{item.nmae}}</p>' }), () => ({ label: 'upload people.csv', columns: ['name', 'email'] }));
        expect(problems.map((p) => [p.path, p.message])).toEqual([['nodes[2].data.html', expect.stringContaining("did you mean 'name'?")]]);
    });

    it('accepts {{unsubscribeUrl}} in subject, body and html only, and checks html like the other templates', () => {
        expect(validateGraph(mailGraph({ subject: '{{unsubscribeUrl}}', body: '{{ unsubscribeUrl }}', html })).ok).toBe(true);
        const result = validateGraph(mailGraph({ to: '{{unsubscribeUrl}}', html: '{{nope.x}}' }));
        const wrong = result.ok ? [] : result.problems.map((p) => [p.path, p.message]);
        expect(wrong).toEqual([
            ['nodes[2].data.to', "{{unsubscribeUrl}} can only be used in OUTPUT 'subject', 'body' and 'html'"],
            ['nodes[2].data.html', "{{nope.x}} refers to node 'nope', which does not exist"]
        ]);
    });
});
