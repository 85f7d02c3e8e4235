import { EventEmitter, once } from 'node:events';
import Http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { WEBHOOK_JOB } from '../src/store/queue.js';
import { WEBHOOK_SLOTS_PER_ACCOUNT } from '../src/worker/webhooks.js';
import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { runsApi } from './run-fixtures.js';

const trigger = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
/** More runs than the process has delivery slots. */
const FLOOD = 12;
/** Accounts flooding at once, as a sign-up per e-mail address allows: they filled the 8 slots the process had. */
const FLOODERS = 4;

/** A webhook receiver on loopback; `hold` leaves every request it gets open, unanswered. */
const receiver = async () => {
    const events = new EventEmitter();
    /** Requests held open, with the run each delivers. */
    const open = new Map<Http.ServerResponse, string>();
    const delivered: string[] = [];
    let hold = true;
    const server = Http.createServer((req, res) => {
        const runId = req.headers['x-flowctl-delivery'] as string;
        req.resume();
        if (hold) {
            open.set(res, runId);
            // The worker gave up waiting (its timeout): what must not happen before the other account's delivery.
            res.on('close', () => {
                if (open.delete(res)) {
                    events.emit('dropped', runId);
                }
            });
            events.emit('held', runId);
            return;
        }

        req.on('end', () => {
            res.writeHead(204).end();
            delivered.push(runId);
            events.emit('delivered', runId);
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        events,
        open,
        delivered,
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
        /** Answers the request held longest, and holds the later ones still. */
        answerOne() {
            const [first] = open;
            if (first) {
                const [res, runId] = first;
                open.delete(res);
                res.writeHead(204).end();
                delivered.push(runId);
                events.emit('delivered', runId);
            }
        },
        /** Answers the held requests and every later one. */
        answer() {
            hold = false;
            for (const [res, runId] of [...open]) {
                open.delete(res);
                res.writeHead(204).end();
                delivered.push(runId);
                events.emit('delivered', runId);
            }
        },
        async close() {
            server.closeAllConnections();
            await new Promise<void>((resolve) => server.close(() => resolve()));
        }
    };
};

/** Resolves when `count` requests are held open at once. */
const heldOpen = (silent: Awaited<ReturnType<typeof receiver>>, count: number) =>
    new Promise<void>((resolve) => {
        const check = () => {
            if (silent.open.size >= count) {
                silent.events.off('held', check);
                resolve();
            }
        };
        silent.events.on('held', check);
        check();
    });

/**
 * FLOODERS accounts, each with `runs` runs (taken in turns, each waited for) of a workflow whose
 * webhook is `silent`'s. Returns each run's account.
 */
const flood = async (t: TestServer, silent: Awaited<ReturnType<typeof receiver>>, runs: number): Promise<Map<string, number>> => {
    const accounts = [];
    for (let i = 0; i < FLOODERS; i++) {
        const api = runsApi(t, await createAccount(t));
        accounts.push({ api, workflowId: await api.workflow(trigger, { webhookUrl: silent.url }) });
    }

    const accountOf = new Map<string, number>();
    for (let round = 0; round < runs; round++) {
        for (const [i, { api, workflowId }] of accounts.entries()) {
            accountOf.set((await api.run(workflowId)).runId, i);
        }
    }

    return accountOf;
};

/** Resolves once the webhook delivery of run `runId` is due in the job table (or already taken). */
const bDeliveryDue = async (t: TestServer, runId: string, delivered: string[]) => {
    while (!delivered.includes(runId)) {
        const due = await t.app.ctx.db.query(
            "SELECT 1 FROM agenda_jobs WHERE name = $1 AND data ->> 'runId' = $2 AND (next_run_at <= now() OR locked_at IS NOT NULL OR last_finished_at IS NOT NULL)",
            [WEBHOOK_JOB, runId]
        );
        if (due.length > 0) {
            return;
        }

        await new Promise((resolve) => setTimeout(resolve, 20));
    }
};

/** Answers every held request and resolves once each of `runIds` was delivered: waiting lost none. */
const answerAll = async (silent: Awaited<ReturnType<typeof receiver>>, runIds: string[]) => {
    const all = new Promise<void>((resolve) => {
        const check = () => runIds.every((runId) => silent.delivered.includes(runId)) && resolve();
        silent.events.on('delivered', check);
    });
    silent.answer();
    await all;
};

describe('webhooks: deliveries shared fairly across accounts', () => {
    let t: TestServer;
    beforeAll(async () => {
        // The receivers listen on loopback.
        t = await startTestServer({ config: { allowPrivateNetwork: true } });
    });
    afterAll(() => t.close());

    it("delivers another account's webhook while one account's endpoint holds every delivery open", async () => {
        const silent = await receiver();
        const prompt = await receiver();
        prompt.answer();
        try {
            const a = runsApi(t, await createAccount(t));
            const b = runsApi(t, await createAccount(t));
            const flood = await a.workflow(trigger, { webhookUrl: silent.url });
            const firstHeld = once(silent.events, 'held');
            for (let i = 0; i < FLOOD; i++) {
                await a.run(flood);
            }

            await firstHeld;

            // B's run ends after all of A's: its delivery must not wait for A's to time out.
            const bWorkflow = await b.workflow(trigger, { webhookUrl: prompt.url });
            const outcome = Promise.race([
                once(prompt.events, 'delivered').then(([runId]) => ({ first: 'B delivered', runId })),
                once(silent.events, 'dropped').then(([runId]) => ({ first: 'a delivery of A timed out', runId }))
            ]);
            const bRun = await b.run(bWorkflow);
            expect(await outcome).toEqual({ first: 'B delivered', runId: bRun.runId });
            // A holds its share of the slots, no more: the rest of A's deliveries wait their turn.
            expect(silent.open.size).toBeGreaterThan(0);
            expect(silent.open.size).toBeLessThanOrEqual(WEBHOOK_SLOTS_PER_ACCOUNT);

            // Once A's endpoint answers, every one of A's deliveries arrives: waiting lost none.
            const all = new Promise<void>((resolve) => {
                silent.events.on('delivered', () => new Set(silent.delivered).size === FLOOD && resolve());
            });
            silent.answer();
            await all;
        } finally {
            await silent.close();
            await prompt.close();
        }
    });

    it("delivers another account's webhook at once while several accounts' endpoints hold every delivery they may open", async () => {
        const silent = await receiver();
        const prompt = await receiver();
        prompt.answer();
        try {
            // Each flooder holds its share, and the flooders together as many as the process once had slots.
            const accountOf = await flood(t, silent, WEBHOOK_SLOTS_PER_ACCOUNT + 1);
            await heldOpen(silent, FLOODERS * WEBHOOK_SLOTS_PER_ACCOUNT);

            const b = runsApi(t, await createAccount(t));
            const bWorkflow = await b.workflow(trigger, { webhookUrl: prompt.url });
            const outcome = Promise.race([
                once(prompt.events, 'delivered').then(([runId]) => ({ first: 'B delivered', runId })),
                once(silent.events, 'dropped').then(([runId]) => ({ first: "a flooder's delivery timed out", runId }))
            ]);
            const bRun = await b.run(bWorkflow);
            expect(await outcome).toEqual({ first: 'B delivered', runId: bRun.runId });

            const held = new Map<number, number>();
            for (const runId of silent.open.values()) {
                held.set(accountOf.get(runId) as number, (held.get(accountOf.get(runId) as number) ?? 0) + 1);
            }
            expect(Math.max(...held.values())).toBeLessThanOrEqual(WEBHOOK_SLOTS_PER_ACCOUNT);

            await answerAll(silent, [...accountOf.keys()]);
        } finally {
            await silent.close();
            await prompt.close();
        }
    });
});

describe('webhooks: a freed delivery slot goes to the account holding the fewest', () => {
    const SLOTS = FLOODERS * WEBHOOK_SLOTS_PER_ACCOUNT;
    let t: TestServer;
    beforeAll(async () => {
        // As many slots as the flooders may hold together, so that they fill them all.
        t = await startTestServer({ config: { allowPrivateNetwork: true, webhookConcurrency: SLOTS } });
    });
    afterAll(() => t.close());

    it("gives a freed slot to another account's waiting delivery, not to a flooder's next one due longer", async () => {
        const silent = await receiver();
        const prompt = await receiver();
        prompt.answer();
        try {
            // Every slot held, and every flooder with one more delivery due, older than B's.
            const accountOf = await flood(t, silent, WEBHOOK_SLOTS_PER_ACCOUNT + 1);
            await heldOpen(silent, SLOTS);

            const b = runsApi(t, await createAccount(t));
            const bRun = await b.run(await b.workflow(trigger, { webhookUrl: prompt.url }));
            // Once B's delivery is due, the next slot freed (one answered here, or a flooder's timing
            // out) must go to B, not to a flooder's next delivery, due longer.
            await bDeliveryDue(t, bRun.runId, prompt.delivered);
            // A flooder's delivery that timed out meanwhile may have freed a slot already: B took it.
            const outcome = prompt.delivered.includes(bRun.runId) ? Promise.resolve({ next: 'B delivered', runId: bRun.runId }) : Promise.race([
                once(prompt.events, 'delivered').then(([runId]) => ({ next: 'B delivered', runId })),
                once(silent.events, 'held').then(([runId]) => ({ next: "a flooder's next delivery started", runId }))
            ]);
            silent.answerOne();
            expect(await outcome).toEqual({ next: 'B delivered', runId: bRun.runId });

            await answerAll(silent, [...accountOf.keys()]);
        } finally {
            await silent.close();
            await prompt.close();
        }
    });
});
