import { once } from 'node:events';

import Pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { loadConfig } from '../src/config.js';
import type { RelayState } from '../src/mail/relay-state.js';
import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { type OpenAiStub, startOpenAiStub } from './openai-stub.js';
import { newsletter, runsApi } from './run-fixtures.js';

// A run whose relay stops mid-way: the OUTPUT node pauses as a whole and says why, the server logs the
// relay going down and coming back once each, and every row is sent once it is back. Each e-mail may
// be tried 3 times only (50 ms, then 100 ms apart): before, the e-mails under way used those up and failed.

describe('runs: an outage of the relay pauses sending', () => {
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;
    const lines: { level: number; msg: string; lastReply?: string; error?: string }[] = [];
    let relay: RelayState;

    beforeAll(async () => {
        const logger = Pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
        t = await startTestServer({ logger, config: { smtp: { ...loadConfig({}).smtp, connections: 2, retryAttempts: 3, retryDelayMs: 50, retryForMs: 60_000 } } });
        api = runsApi(t, await createAccount(t));
        relay = t.app.ctx.mailer.relay as RelayState;
    });
    afterAll(() => t.close());

    const workflow = async (domain: string, count: number) => {
        const recipients = Array.from({ length: count }, (_, i) => `r${i}@${domain}`);
        const csv = ['name,email,age', ...recipients.map((email, i) => `R${i},${email},${20 + i}`)].join('\n');
        return { recipients, workflowId: await api.workflow(newsletter(await api.upload(csv), 'age > 0')) };
    };

    it('holds the OUTPUT node while the relay is stopped, says so, and sends every row once it is back', async () => {
        const { recipients, workflowId } = await workflow('pause.example.test', 30);
        t.smtp.delay(20);
        const before = t.smtp.messages.length;
        const runId = await api.enqueue(workflowId);
        await t.smtp.waitFor(before + 3);
        const down = once(relay, 'change');
        await t.smtp.stop();
        await down;
        const held = await api.waitFor(runId, (run) => typeof api.node(run, 'send').output?.waiting === 'string');
        expect(api.node(held, 'send')).toMatchObject({ status: 'RUNNING', output: { waiting: expect.stringMatching(/^relay unreachable since \d\d:\d\d:\d\dZ, next try in \d+ s \(last reply: .*ECONNREFUSED/) } });
        for (let i = 0; i < 4; i++) {
            await once(relay, 'probe');
        }

        await t.smtp.start();
        t.smtp.delay(0);
        const run = await api.waitFor(runId);
        expect(run).toMatchObject({ status: 'SUCCESS', result: { totalRows: 30, emailsSent: 30 } });
        expect(api.node(run, 'send').output?.waiting).toBeUndefined();
        const received = new Set(t.smtp.messages.filter((m) => m.to[0]?.endsWith('@pause.example.test')).map((m) => m.to[0]));
        expect([...received].sort()).toEqual([...recipients].sort());

        const warnings = lines.filter((line) => line.level === 40 && /mail relay/.test(line.msg)).map((line) => line.msg);
        expect(warnings[0]).toMatch(/^mail relay down/);
        expect(warnings.at(-1)).toMatch(/^mail relay back/);
        expect(lines.find((line) => /mail relay down/.test(line.msg))?.lastReply).toMatch(/ECONNREFUSED/);

        const metrics = (await t.request({ method: 'GET', url: '/metrics' })).payload;
        expect(metrics).toMatch(/flowctl_emails_total\{outcome="sent"\} [1-9]/);
        expect(metrics).toMatch(/flowctl_smtp_replies_total\{class="none"\} [1-9]/);
        expect(metrics).toMatch(/flowctl_email_send_seconds_count [1-9]/);
    });

    it('waits out a storm of 421s to every command, fails nothing, and then delivers every row exactly once', async () => {
        const { recipients, workflowId } = await workflow('storm.example.test', 40);
        t.smtp.delay(20);
        const before = t.smtp.messages.length;
        const runId = await api.enqueue(workflowId);
        await t.smtp.waitFor(before + 5);
        // Both connections have a message whose data arrived, unanswered: the storm refuses those at the
        // end of their data (copies not kept, so they must go again), then every new connection at its
        // greeting. Each 421 closes its connection.
        await t.smtp.hold(2);
        const down = once(relay, 'change');
        t.smtp.refuseAll(421);
        t.smtp.release();
        await down;
        const held = await api.waitFor(runId, (run) => typeof api.node(run, 'send').output?.waiting === 'string');
        expect(api.node(held, 'send')).toMatchObject({
            status: 'RUNNING',
            output: { waiting: expect.stringMatching(/^relay refusing mail since \d\d:\d\d:\d\dZ, next try in \d+ s \(last reply: 421 /) }
        });
        for (let i = 0; i < 6; i++) {
            await once(relay, 'probe');
        }

        const refused = t.smtp.refusedAll;
        expect(refused).toBeGreaterThanOrEqual(7);
        t.smtp.refuseAll(null);
        t.smtp.delay(0);
        const run = await api.waitFor(runId);
        expect(run).toMatchObject({ status: 'SUCCESS', result: { totalRows: 40, emailsSent: 40 } });
        expect(run.result).not.toHaveProperty('unknownOutcome');
        expect(run.result).not.toHaveProperty('possiblyDuplicated');

        // At the receiving end: each row once, none lost, none twice.
        const received = t.smtp.messages.filter((m) => m.to[0]?.endsWith('@storm.example.test')).map((m) => m.to[0]);
        expect(received.sort()).toEqual([...recipients].sort());
        const ledger = await api.call('GET', `/api/workflows/runs/${runId}/deliveries`);
        expect(ledger.json.map((e: { status: string }) => e.status)).toEqual(Array(40).fill('sent'));
    });

});

describe('runs: a relay down past SMTP_RETRY_FOR_MS', () => {
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;
    const lines: { level: number; msg: string; error?: string }[] = [];

    beforeAll(async () => {
        const logger = Pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
        t = await startTestServer({ logger, config: { smtp: { ...loadConfig({}).smtp, connections: 2, retryDelayMs: 50, retryForMs: 800 } } });
        api = runsApi(t, await createAccount(t));
    });
    afterAll(() => t.close());

    it('fails the run, every row left to retry and the error naming the relay; its retry sends them once the relay is back', async () => {
        const recipients = Array.from({ length: 6 }, (_, i) => `r${i}@gone.example.test`);
        const csv = ['name,email,age', ...recipients.map((email, i) => `R${i},${email},${20 + i}`)].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        await t.smtp.stop();
        const failed = await api.run(workflowId);
        expect(failed).toMatchObject({ status: 'FAILED', result: { emailsSent: 0 } });
        expect(api.node(failed, 'send').error).toMatch(/^6 of 6 e-mails failed: #0: .*the mail relay has not taken mail since .*ECONNREFUSED/);
        // Logged once the run's end is stored, so a client can read it just before the line is written.
        await vi.waitFor(() => expect(lines.some((line) => line.level === 40 && line.msg === 'run failed' && /mail relay/.test(line.error ?? ''))).toBe(true), {
            timeout: 10_000
        });

        await t.smtp.start();
        const retry = await api.waitFor((await api.call('POST', `/api/workflows/runs/${failed.runId}/retry`)).json.runId);
        expect(retry).toMatchObject({ status: 'SUCCESS', result: { totalRows: 6, emailsSent: 6 } });
        expect(t.smtp.messages.map((m) => m.to[0]).sort()).toEqual([...recipients].sort());
    });
});

describe('runs: an e-mail whose answer was cut off, the relay then gone', () => {
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;

    beforeAll(async () => {
        t = await startTestServer({ config: { smtp: { ...loadConfig({}).smtp, connections: 1, retryDelayMs: 50, retryForMs: 800 } } });
        api = runsApi(t, await createAccount(t));
    });
    afterAll(() => t.close());

    it('is of unknown outcome, not failed: the run counts it so, and its retry does not send it again', async () => {
        // Found by an outside attack: it was recorded failed, and the retry sent a second copy, flagged nowhere.
        const workflowId = await api.workflow(newsletter(await api.upload('name,email,age\nAda,ada@cut.example.test,40'), 'age > 0'));
        t.smtp.delay(5000);
        const runId = await api.enqueue(workflowId);
        await vi.waitFor(() => expect(t.smtp.rcpts.get('ada@cut.example.test')).toBe(1), { timeout: 10_000 });
        // Its data goes out right after RCPT; the relay stops before its answer (5 s later).
        await new Promise((resolve) => setTimeout(resolve, 300));
        await t.smtp.stop();
        const run = await api.waitFor(runId);
        expect(run).toMatchObject({ status: 'SUCCESS', result: { emailsSent: 0, unknownOutcome: 1 } });
        const ledger = await api.call('GET', `/api/workflows/runs/${runId}/deliveries`);
        expect(ledger.json.map((e: { status: string }) => e.status)).toEqual(['unknown']);

        t.smtp.delay(0);
        await t.smtp.start();
        const retried = await api.call('POST', `/api/workflows/runs/${runId}/retry`);
        if (retried.statusCode === 202) {
            expect(await api.waitFor(retried.json.runId)).toMatchObject({ result: { emailsSent: 0 } });
        } else {
            expect(retried.statusCode, retried.payload).toBe(409);
        }

        expect(t.smtp.rcpts.get('ada@cut.example.test')).toBe(1);
    });
});

describe('runs: a run that begins sending once the relay is back, after it was given up', () => {
    let t: TestServer;
    let stub: OpenAiStub;
    let api: ReturnType<typeof runsApi>;

    beforeAll(async () => {
        stub = await startOpenAiStub();
        // Probes 2 s apart: a run that starts sending just after the relay was given up is well before the next one.
        const smtp = { ...loadConfig({}).smtp, connections: 2, retryDelayMs: 2000, retryForMs: 800 };
        t = await startTestServer({ config: { smtp, ai: { apiKey: 'sk-test', baseUrl: stub.baseUrl, model: 'gpt-test' }, allowPrivateNetwork: true } });
        api = runsApi(t, await createAccount(t));
    });
    afterAll(async () => {
        await t.close();
        await stub.close();
    });

    it('sends the e-mails of a run that was busy in an AI node while the relay was down and given up', async () => {
        // Found by an outside attack: such a run failed every e-mail untried, the relay back for a second.
        const recipients = ['a@busy.example.test', 'b@busy.example.test', 'c@busy.example.test'];
        const csv = ['name,email', ...recipients.map((email, i) => `R${i},${email}`)].join('\n');
        const uploadId = await api.upload(csv);
        const graph = {
            nodes: [
                { id: 'start', type: 'TRIGGER', data: {} },
                { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
                { id: 'greet', type: 'AI', data: { prompt: 'A greeting for {{people.rows}}', output: [{ name: 'line', type: 'string' }] } },
                { id: 'send', type: 'OUTPUT', data: { forEach: '{{people.rows}}', to: '{{item.email}}', subject: '{{greet.line}}', body: 'Hi {{item.name}}' } }
            ],
            edges: [
                { source: 'start', target: 'people' },
                { source: 'people', target: 'greet' },
                { source: 'greet', target: 'send' }
            ]
        };
        let answer = () => {};
        stub.fallback({ content: JSON.stringify({ line: 'Hello' }), after: new Promise<void>((resolve) => (answer = resolve)) });
        await t.smtp.stop();
        const busy = await api.enqueue(await api.workflow(graph));
        await stub.waitForRequests(1);

        // Meanwhile another run finds the relay down, and fails once it is given up.
        const other = await api.workflow(newsletter(await api.upload('name,email,age\nZed,zed@busy.example.test,40'), 'age > 0'));
        expect(await api.run(other)).toMatchObject({ status: 'FAILED', result: { emailsSent: 0 } });

        // The relay is back, and the busy run starts sending before the next probe is due.
        await t.smtp.start();
        answer();
        const run = await api.waitFor(busy);
        expect(run).toMatchObject({ status: 'SUCCESS', result: { emailsSent: 3 } });
        expect(t.smtp.messages.map((m) => m.to[0]).filter((to) => to?.endsWith('@busy.example.test') && to !== 'zed@busy.example.test').sort()).toEqual(recipients);
    });
});
