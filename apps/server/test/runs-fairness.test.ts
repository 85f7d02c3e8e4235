import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.js';
import { createAccount } from './fixtures.js';
import { type GatedSmtp, startGatedSmtp } from './gated-smtp.js';
import { startTestServer, store, type TestServer } from './harness.js';
import { type OpenAiStub, startOpenAiStub } from './openai-stub.js';
import { ms, newsletter, noMail, runsApi } from './run-fixtures.js';


const oneRow = (tag: string) => `name,email,age,city\nP,${tag}@fair.example.test,40,Porto`;

type Held = Awaited<ReturnType<GatedSmtp['holdAt']>>;

/**
 * 1,000 rows, one of them (age 99) to e-mail. With RUN_MEMORY_MB 1 its estimate (about 0.3 MB) is
 * more than a run may hold while it waits on the network without a slot (RUN_MEMORY_MB / 8): its
 * held e-mail keeps the slot, as a run computing would.
 */
const keepsItsSlot = ['name,email,age,city', ...Array.from({ length: 1000 }, (_, i) => `P${i},p${i}@fair.example.test,${i === 0 ? 99 : 40},Porto`)].join('\n');

/** Resolves once `count` runs of the process wait for a run slot (its /metrics gauge). */
const slotWaiters = async (t: TestServer, count: number) => {
    for (;;) {
        const text = await (await fetch(`${t.url}/metrics`)).text();
        if (Number(/^flowctl_runs_waiting_for_slot (\d+)$/m.exec(text)?.[1]) === count) {
            return;
        }

        await new Promise((resolve) => setTimeout(resolve, 20));
    }
};

/** TRIGGER -> DATA_SOURCE -> AI (one call per row): a run that waits on the model for each row. */
const perRowAi = (uploadId: string) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'guess', type: 'AI', data: { forEach: '{{people.rows}}', prompt: 'A word for {{item.name}}', output: [{ name: 'word', type: 'string' }] } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'guess' }
    ]
});

/**
 * Five runs of account A (one workflow each, one e-mail each), every e-mail held unanswered at the
 * sink like a server answering 451. Resolves once all five e-mails are held: a run waiting on the
 * mail server holds no run slot; `releaseAll` answers them and waits for all five runs.
 */
const fiveHeldRuns = async (smtp: GatedSmtp, a: ReturnType<typeof runsApi>, held: Held[]) => {
    const upload = await a.upload(oneRow('a'));
    const workflows: string[] = [];
    for (let i = 0; i < 5; i++) {
        workflows.push(await a.workflow(newsletter(upload, 'age > 0')));
    }

    const base = smtp.received;
    const holds = Array.from({ length: 5 }, (_, i) => smtp.holdAt(base + i + 1));
    const runs: string[] = [];
    for (const workflowId of workflows) {
        runs.push(await a.enqueue(workflowId));
    }

    held.push(...(await Promise.all(holds)));
    return {
        runs,
        sent: () => smtp.received - base,
        statuses: async () => Promise.all(runs.map(async (runId) => (await a.get(runId)).status)),
        async releaseAll() {
            for (const message of held.splice(0)) {
                message.answer(true);
            }

            return Promise.all(runs.map((runId) => a.waitFor(runId)));
        }
    };
};

describe('runs: slots shared across accounts', () => {
    let smtp: GatedSmtp;
    let t: TestServer | null = null;
    const held: Held[] = [];
    beforeAll(async () => {
        smtp = await startGatedSmtp();
    });
    afterEach(async () => {
        for (const message of held.splice(0)) {
            message.answer(true);
        }

        await t?.close();
        t = null;
    });
    afterAll(async () => {
        await smtp.close();
    });

    const start = (runConcurrency: number, runMemoryMb = 256) =>
        startTestServer({ config: { smtpUrl: smtp.url, smtp: { ...loadConfig({}).smtp, connections: 8 }, runConcurrency, runMemoryMb } });

    it("runs waiting on the mail server hold no slot: one account's five held runs all go on, and another account's run goes through", async () => {
        t = await start(4);
        const a = runsApi(t, await createAccount(t));
        const b = runsApi(t, await createAccount(t));
        // Before, an account got at most its cap of two slots, and those two stayed held by the e-mails.
        const aRuns = await fiveHeldRuns(smtp, a, held);
        const bRun = await b.run(await b.workflow(noMail(await b.upload(oneRow('b')))));
        expect(bRun.status).toBe('SUCCESS');
        expect(await aRuns.statuses()).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'RUNNING']);

        const ended = await aRuns.releaseAll();
        expect(ended.map((run) => run.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
        expect(ended.map((run) => run.result.emailsSent)).toEqual([1, 1, 1, 1, 1]);
    });

    it('a finished run gives its slot to the run of another account that waits, before its workflow goes on', async () => {
        // One slot, held by A's first run (too big to wait without it) while its e-mail is held.
        t = await start(1, 1);
        const a = runsApi(t, await createAccount(t));
        const b = runsApi(t, await createAccount(t));
        const aWorkflow = await a.workflow(newsletter(await a.upload(keepsItsSlot), 'age == 99'));
        const bWorkflow = await b.workflow(noMail(await b.upload(oneRow('b'))));

        const first = smtp.holdAt(smtp.received + 1);
        const a1 = await a.enqueue(aWorkflow);
        const a2 = await a.enqueue(aWorkflow);
        held.push(await first);
        const b1 = await b.enqueue(bWorkflow);
        // B's run is ready and waits for the slot A's run holds.
        await slotWaiters(t, 1);
        expect((await b.get(b1)).status).toBe('PENDING');

        held.shift()!.answer(true);
        const [endA1, endA2, endB1] = [await a.waitFor(a1), await a.waitFor(a2), await b.waitFor(b1)];
        expect([endA1.status, endA2.status, endB1.status]).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
        // Ordering, read from the run records: B's run went between A's two.
        expect(ms(endB1.startedAt)).toBeGreaterThanOrEqual(ms(endA1.completedAt));
        expect(ms(endA2.startedAt)).toBeGreaterThanOrEqual(ms(endB1.completedAt));
    });

    it('with free slots, an account alone runs its workflow\'s runs one after another and other workflows at once', async () => {
        // Work-conserving: A's held run does not keep A's other workflow from a free slot.
        t = await start(2, 1);
        const a = runsApi(t, await createAccount(t));
        const first = smtp.holdAt(smtp.received + 1);
        const big = await a.enqueue(await a.workflow(newsletter(await a.upload(keepsItsSlot), 'age == 99')));
        held.push(await first);
        const small = await a.run(await a.workflow(noMail(await a.upload(oneRow('a')))));
        expect(small.status).toBe('SUCCESS');
        expect((await a.get(big)).status).toBe('RUNNING');
        held.shift()!.answer(true);
        expect((await a.waitFor(big)).status).toBe('SUCCESS');
    });
});

describe('runs: waiting on a slow model holds no slot', () => {
    let stub: OpenAiStub;
    let t: TestServer | null = null;
    beforeAll(async () => {
        stub = await startOpenAiStub();
    });
    afterAll(async () => {
        await t?.close();
        await stub.close();
    });

    it("two accounts' runs blocked on the model, with one run slot: a third account's run starts and ends meanwhile", async () => {
        t = await startTestServer({ config: { runConcurrency: 1, ai: { apiKey: 'sk-test', baseUrl: stub.baseUrl, model: 'gpt-test' }, allowPrivateNetwork: true } });
        let answer: () => void = () => {};
        const slow = new Promise<void>((resolve) => (answer = resolve));
        stub.fallback({ content: JSON.stringify({ word: 'slow' }), after: slow });
        const blocked: { api: ReturnType<typeof runsApi>; runId: string }[] = [];
        for (const who of ['a', 'b']) {
            const api = runsApi(t, await createAccount(t));
            const upload = await api.upload(oneRow(who));
            for (let i = 0; i < 2; i++) {
                blocked.push({ api, runId: await api.enqueue(await api.workflow(perRowAi(upload))) });
            }
        }

        // Four model calls under way, none answered: before, the first one held the only slot.
        await stub.waitForRequests(4);
        const c = runsApi(t, await createAccount(t));
        const cRun = await c.run(await c.workflow(noMail(await c.upload(oneRow('c')))));
        expect(cRun.status).toBe('SUCCESS');
        expect(await Promise.all(blocked.map(async ({ api, runId }) => (await api.get(runId)).status))).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING']);

        answer();
        const ended = await Promise.all(blocked.map(({ api, runId }) => api.waitFor(runId)));
        expect(ended.map((run) => run.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
    });
});

// Only a real PostgreSQL server is shared by several processes; the embedded store has one owner.
if (store === 'postgres') describe('runs: run slots shared across processes on one PostgreSQL', () => {
    let smtp: GatedSmtp;
    const servers: TestServer[] = [];
    const held: Held[] = [];
    beforeAll(async () => {
        smtp = await startGatedSmtp();
    });
    afterAll(async () => {
        for (const message of held.splice(0)) {
            message.answer(true);
        }

        for (const server of servers.reverse()) {
            await server.close();
        }

        await smtp.close();
    });

    it("two workers: one account's five runs held at the mail server all go on, and another account's run goes through", async () => {
        const config = { smtpUrl: smtp.url, smtp: { ...loadConfig({}).smtp, connections: 8 }, runConcurrency: 1 };
        const first = await startTestServer({ config: { ...config, role: 'worker' } });
        servers.push(first);
        servers.push(await startTestServer({ testStore: first.testStore, config: { ...config, role: 'worker' } }));
        const api = await startTestServer({ testStore: first.testStore, config: { ...config, role: 'api' } });
        servers.push(api);
        const a = runsApi(api, await createAccount(api));
        const b = runsApi(api, await createAccount(api));
        const aRuns = await fiveHeldRuns(smtp, a, held);
        expect((await b.run(await b.workflow(noMail(await b.upload(oneRow('b')))))).status).toBe('SUCCESS');
        expect(aRuns.sent()).toBe(5);

        const ended = await aRuns.releaseAll();
        expect(ended.map((run) => run.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
    });
});
