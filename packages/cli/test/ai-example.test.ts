// examples/workflows/ai-summary.yaml, applied with the built CLI and run by a real server against a
// local OpenAI-protocol server and a real SMTP sink: each contact gets the line written for them.
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type OpenAiStub, startOpenAiStub } from '../../../apps/server/test/openai-stub.js';
import { EXAMPLES, flowctl, freshHome, type Server, signUp, startServer } from './harness.js';

let stub: OpenAiStub;
let server: Server;

beforeAll(async () => {
    stub = await startOpenAiStub();
    server = await startServer({ ai: { apiKey: 'sk-example', baseUrl: stub.baseUrl, model: 'gpt-example' } });
});

afterAll(async () => {
    await server?.close();
    await stub?.close();
});

describe('examples/workflows/ai-summary.yaml', () => {
    it("sends each subscribed contact the line the model wrote for them, and only that line; Grace (unsubscribed) gets nothing", async () => {
        // The line names whom it was written for, taken from the prompt the server rendered.
        stub.fallback((body) => {
            const who = /Invite (.+?) from/.exec(body.messages.at(-1).content)?.[1];
            return { content: JSON.stringify({ line: `A seat is waiting for ${who}.` }) };
        });
        const home = freshHome();
        await signUp(server, home);
        const applied = await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'ai-summary.yaml')], { home });
        expect(applied.code, applied.stderr).toBe(0);
        const before = server.smtp.messages.length;
        const run = await flowctl(['--json', 'run', 'Personal invitations', '--watch'], { home });
        expect(run.code, run.stderr).toBe(0);
        expect(run.json).toMatchObject({ status: 'SUCCESS', result: { totalRows: 5, filteredOut: 1, emailsSent: 4, aiCalls: 4, aiPromptTokens: 40, aiCompletionTokens: 40 } });

        const mails = (await server.smtp.waitFor(before + 4)).slice(before);
        expect(mails.flatMap((m) => m.to).sort()).toEqual(['ada@example.com', 'alan@example.com', 'linus@example.com', 'margaret@example.com']);
        expect(stub.requests.map((r) => JSON.stringify(r.body))).not.toEqual(expect.arrayContaining([expect.stringContaining('Grace Hopper')]));
        const bodyOf = (to: string) => mails.find((m) => m.to.includes(to))?.text.trim();
        expect(bodyOf('ada@example.com')).toMatch(/^Hi Ada Lovelace,\n\nA seat is waiting for Ada Lovelace\.\n\nTo stop these e-mails: http:\/\/[^/\s]+\/u\/[\w-]+$/);
        expect(bodyOf('alan@example.com')).toMatch(/^Hi Alan Turing,\n\nA seat is waiting for Alan Turing\.\n\nTo stop these e-mails: http:\/\/[^/\s]+\/u\/[\w-]+$/);
        for (const mail of mails) {
            expect(mail.text.match(/A seat is waiting/g)).toHaveLength(1);
        }

        // What the model calls cost: on the AI node and in the result, in `runs get` and `run --watch`.
        const shown = await flowctl(['runs', 'get', run.json.runId], { home });
        expect(shown.code, shown.stderr).toBe(0);
        expect(shown.stdout).toMatch(/✓ writer \(AI\) \S+ · 4 AI calls, 40 \+ 40 tokens\n/);
        expect(shown.stdout).toMatch(/SUCCESS in \S+ · 5 rows, 1 filtered out, 4 e-mails sent, 4 AI calls, 40 \+ 40 tokens · run_\w+/);
        const watched = await flowctl(['run', 'Personal invitations', '--watch'], { home });
        expect(watched.stdout.trim().split('\n').at(-1)).toMatch(/^✓ SUCCESS in \S+ · 5 rows, 1 filtered out, 4 e-mails sent, 4 AI calls, 40 \+ 40 tokens · run_\w+$/);
    });

    it('runs retry of a run whose AI node failed: the retry asks only for the lines not yet written, and says what it retries', async () => {
        // The endpoint refuses the key for Linus Torvalds: the node fails, the others' lines are recorded.
        const who = (body: { messages: { content: string }[] }) => /Invite (.+?) from/.exec(body.messages[1]?.content ?? body.messages[0]?.content ?? '')?.[1];
        stub.fallback((body) => (who(body) === 'Linus Torvalds' ? { status: 401, error: 'Incorrect API key provided' } : { content: JSON.stringify({ line: `A seat is waiting for ${who(body)}.` }) }));
        const home = freshHome();
        await signUp(server, home);
        expect((await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'ai-summary.yaml')], { home })).code).toBe(0);
        const failed = await flowctl(['--json', 'run', 'Personal invitations', '--watch'], { home });
        expect(failed.code).toBe(1);
        expect(failed.json).toMatchObject({ status: 'FAILED' });
        await stub.waitForIdle();

        stub.fallback((body) => ({ content: JSON.stringify({ line: `A seat is waiting for ${who(body)}.` }) }));
        const before = { calls: stub.requests.length, mails: server.smtp.messages.length };
        const retried = await flowctl(['runs', 'retry', failed.json.runId, '--watch'], { home });
        expect(retried.code, retried.stderr).toBe(0);
        const asked = stub.requests.length - before.calls;
        expect(asked).toBeGreaterThanOrEqual(1);
        expect(asked).toBeLessThan(4);
        expect(retried.stdout.trim().split('\n').at(-1)).toMatch(new RegExp(`^✓ SUCCESS in \\S+ · 5 rows, 1 filtered out, 4 e-mails sent, ${asked} AI calls?, ${asked * 10} \\+ ${asked * 10} tokens · (run_\\w+)$`));
        const retryId = /· (run_\w+)$/.exec(retried.stdout.trim())?.[1] as string;
        const shown = await flowctl(['runs', 'get', retryId], { home });
        expect(shown.stdout.split('\n')[0]).toBe(`${retryId} of ${failed.json.workflowId} revision 1: SUCCESS (a retry of ${failed.json.runId})`);
        const mails = (await server.smtp.waitFor(before.mails + 4)).slice(before.mails);
        expect(mails.map((m) => m.to[0]).sort()).toEqual(['ada@example.com', 'alan@example.com', 'linus@example.com', 'margaret@example.com']);
    });

    it('settings ai set --concurrency lowers the calls in flight for the account; a bad value is a usage error', async () => {
        const home = freshHome();
        await signUp(server, home);
        const set = await flowctl(['settings', 'ai', 'set', '--concurrency', '3'], { home });
        expect(set.code, set.stderr).toBe(0);
        expect(set.stdout).toContain('AI settings saved: concurrency');
        expect((await flowctl(['--json', 'settings', 'get'], { home })).json.ai).toMatchObject({ concurrency: 3 });
        const bad = await flowctl(['settings', 'ai', 'set', '--concurrency', 'lots'], { home });
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain("--concurrency must be a whole number of at least 1, got 'lots'");
    });
});
