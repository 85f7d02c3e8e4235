import { EventEmitter, once } from 'node:events';
import Http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { WEBHOOK_SLOTS_PER_ACCOUNT } from '../src/worker/webhooks.js';
import { createAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { runsApi } from './run-fixtures.js';

const trigger = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
/** More runs than the process has delivery slots. */
const FLOOD = 12;

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
});
