import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.js';
import { createAccount } from './fixtures.js';
import { type GatedSmtp, startGatedSmtp } from './gated-smtp.js';
import { startTestServer, store, type TestServer } from './harness.js';
import { ms, newsletter, runsApi } from './run-fixtures.js';

/** TRIGGER -> DATA_SOURCE -> FILTER: a run that needs no e-mail, so nothing held at the sink holds it. */
const noMail = (uploadId: string) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'audience', type: 'FILTER', data: { source: '{{people.rows}}', expr: 'age > 0' } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'audience' }
    ]
});

const oneRow = (tag: string) => `name,email,age,city\nP,${tag}@fair.example.test,40,Porto`;

type Held = Awaited<ReturnType<GatedSmtp['holdAt']>>;

/**
 * Five runs of account A (one workflow each, one e-mail each), every e-mail held unanswered at the
 * sink like a server answering 451. Resolves once A's cap of two is busy; `releaseAll` then answers
 * the held e-mails one by one (each ending run lets A's next start) and waits for all five runs.
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

    held.push(await holds[0]!, await holds[1]!);
    return {
        runs,
        sent: () => smtp.received - base,
        statuses: async () => Promise.all(runs.map(async (runId) => (await a.get(runId)).status)),
        async releaseAll() {
            // Each of A's runs that ends frees a slot for the next one of A's (woken, not polled for).
            for (let i = 2; i < 5; i++) {
                held.shift()!.answer(true);
                held.push(await holds[i]!);
            }

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

    const start = (runConcurrency: number, runConcurrencyPerAccount: number) =>
        startTestServer({ config: { smtpUrl: smtp.url, smtp: { ...loadConfig({}).smtp, connections: 8 }, runConcurrency, runConcurrencyPerAccount } });

    it("one account's held runs take at most its cap of the slots: another account's run goes through meanwhile", async () => {
        t = await start(4, 2);
        const a = runsApi(t, await createAccount(t));
        const b = runsApi(t, await createAccount(t));
        const aRuns = await fiveHeldRuns(smtp, a, held);
        const bRun = await b.run(await b.workflow(noMail(await b.upload(oneRow('b')))));
        expect(bRun.status).toBe('SUCCESS');

        // A still holds exactly its cap: two runs RUNNING (their e-mails held), three waiting.
        const statuses = await aRuns.statuses();
        expect(statuses.filter((s) => s === 'RUNNING')).toHaveLength(2);
        expect(statuses.filter((s) => s === 'PENDING')).toHaveLength(3);

        const ended = await aRuns.releaseAll();
        expect(ended.map((run) => run.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
        expect(ended.map((run) => run.result.emailsSent)).toEqual([1, 1, 1, 1, 1]);
    });

    it('a finished run gives its slot to the run of another account that waits, before its workflow goes on', async () => {
        t = await start(1, 1);
        const a = runsApi(t, await createAccount(t));
        const b = runsApi(t, await createAccount(t));
        const aWorkflow = await a.workflow(newsletter(await a.upload(oneRow('a')), 'age > 0'));
        const bWorkflow = await b.workflow(noMail(await b.upload(oneRow('b'))));

        const first = smtp.holdAt(smtp.received + 1);
        const a1 = await a.enqueue(aWorkflow);
        const a2 = await a.enqueue(aWorkflow);
        held.push(await first);
        const b1 = await b.enqueue(bWorkflow);
        expect((await b.get(b1)).status).toBe('PENDING');

        held.shift()!.answer(true);
        const [endA1, endA2, endB1] = [await a.waitFor(a1), await a.waitFor(a2), await b.waitFor(b1)];
        expect([endA1.status, endA2.status, endB1.status]).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
        // Ordering, read from the run records: B's run went between A's two.
        expect(ms(endB1.startedAt)).toBeGreaterThanOrEqual(ms(endA1.completedAt));
        expect(ms(endA2.startedAt)).toBeGreaterThanOrEqual(ms(endB1.completedAt));
    });
});

// Only a real PostgreSQL server is shared by several processes; the embedded store has one owner.
if (store === 'postgres') describe('runs: the per-account cap across processes on one PostgreSQL', () => {
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

    it('two workers with four slots each run at most two of one account\'s runs between them', async () => {
        const config = { smtpUrl: smtp.url, smtp: { ...loadConfig({}).smtp, connections: 8 }, runConcurrency: 4, runConcurrencyPerAccount: 2 };
        const first = await startTestServer({ config: { ...config, role: 'worker' } });
        servers.push(first);
        servers.push(await startTestServer({ testStore: first.testStore, config: { ...config, role: 'worker' } }));
        const api = await startTestServer({ testStore: first.testStore, config: { ...config, role: 'api' } });
        servers.push(api);
        const a = runsApi(api, await createAccount(api));
        const b = runsApi(api, await createAccount(api));
        const aRuns = await fiveHeldRuns(smtp, a, held);
        expect((await b.run(await b.workflow(noMail(await b.upload(oneRow('b')))))).status).toBe('SUCCESS');
        expect((await aRuns.statuses()).filter((s) => s === 'RUNNING')).toHaveLength(2);
        expect(aRuns.sent()).toBe(2);

        const ended = await aRuns.releaseAll();
        expect(ended.map((run) => run.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
    });
});
