import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.js';
import { MAX_STRIKES } from '../src/worker/interruption.js';
import { createAccount } from './fixtures.js';
import { type GatedSmtp, startGatedSmtp } from './gated-smtp.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

// A worker that dies is simulated in-process: it stops at once, as if its lease were lost (sending
// nothing more, though a run has several e-mails under way), and its lease row disappears, as if it
// had expired, so another drain takes the run over. Process kills are in crash.test.ts.

describe('runs: takeover, stalls and live figures', () => {
    let smtp: GatedSmtp;
    let t: TestServer;
    let api: ReturnType<typeof runsApi>;

    beforeAll(async () => {
        smtp = await startGatedSmtp();
        // One e-mail at a time, so that holding one holds the run.
        const oneAtATime = { ...loadConfig({}).smtp, connections: 1 };
        t = await startTestServer({ config: { smtpUrl: smtp.url, smtp: oneAtATime, runLeaseMs: 1000 } });
        api = runsApi(t, await createAccount(t));
    });
    afterAll(async () => {
        await t.close();
        await smtp.close();
    });

    const workflow = async (prefix: string, rows: number) => {
        const csv = ['name,email,age,city', ...Array.from({ length: rows }, (_, i) => `P${i},${prefix}${i}@takeover.example.test,${30 + i},Faro`)].join('\n');
        return api.workflow(newsletter(await api.upload(csv), 'age > 0'));
    };

    // The dying attempt's stop is taken before anything else happens, and its lease goes first: a
    // worker that lost its lease queues the workflow again at once, and the attempt that takes over
    // must be neither the one stopped nor the one whose lease is deleted.
    const dies = async (runId: string, lostWrites?: () => Promise<unknown>) => {
        const stop = t.app.ctx.queue.local.get(runId);
        await t.app.ctx.db.query('DELETE FROM workflow_leases');
        await lostWrites?.();
        stop?.('lease-lost');
    };

    /** The attempt notes its progress once, in the background: only after that may a test undo it. */
    const progressNoted = async (runId: string) => {
        while (!(await t.app.ctx.db.query<{ progressed: boolean }>('SELECT progressed FROM runs WHERE id = $1', [runId]))[0]?.progressed) {
            await new Promise((resolve) => setTimeout(resolve, 20));
        }
    };

    /** Starts a run and returns once the `nth` e-mail from now is held. */
    const runUntilHeld = async (workflowId: string, nth: number) => {
        const held = smtp.holdAt(smtp.received + nth);
        const runId = await api.enqueue(workflowId);
        return { runId, held: await held };
    };

    it('shows e-mails sent so far while the run waits on the mail server', async () => {
        const _base = smtp.accepted.length;
        const { runId, held } = await runUntilHeld(await workflow('live', 6), 4);
        const live = await api.waitFor(runId, (run) => run.result.emailsSent === 3);
        expect(live.status).toBe('RUNNING');
        expect(api.node(live, 'send')).toMatchObject({ status: 'RUNNING', output: { emailsSent: 3 } });
        held.answer(true);
        expect((await api.waitFor(runId)).result.emailsSent).toBe(6);
    });

    it(`gives up a run interrupted ${MAX_STRIKES} times in a row without a new e-mail, naming the last interruption and counting what it sent`, async () => {
        const base = smtp.accepted.length;
        const { runId, held } = await runUntilHeld(await workflow('max', 8), 5);
        // The fifth is accepted; the worker "dies" while the sixth waits, after two earlier strikes.
        const sixth = smtp.holdAt(smtp.received + 1);
        held.answer(true);
        const next = await sixth;
        await progressNoted(runId);

        await t.app.ctx.db.query('UPDATE runs SET strikes = $2, progressed = false WHERE id = $1', [runId, MAX_STRIKES - 1]);
        await dies(runId);
        next.answer(false);

        const run = await api.waitFor(runId);
        expect(run.status).toBe('FAILED');
        expect(run.error).toBe(
            `the run was interrupted ${MAX_STRIKES} times in a row without sending a new e-mail (last: its worker lost the lease (it was paused, or the store answered too slowly)), ` +
                `so it is not tried again; retry it (POST /api/workflows/runs/${runId}/retry) to send the e-mails it did not send`
        );
        expect(smtp.accepted.length - base).toBe(5);
        expect(run.result.emailsSent).toBe(5);
        expect(api.node(run, 'send')).toMatchObject({ status: 'FAILED', output: { emailsSent: 5 } });
    });

    it('shows what the OUTPUT node sent when the run is given up before that node\'s state reached the store', async () => {
        const { runId, held } = await runUntilHeld(await workflow('unrecorded', 6), 3);
        const fourth = smtp.holdAt(smtp.received + 1);
        held.answer(true);
        const next = await fourth;
        await progressNoted(runId);

        // The worker is killed before its write of the OUTPUT node's state lands, on its last allowed strike.
        await t.app.ctx.db.query('UPDATE runs SET strikes = $2, progressed = false WHERE id = $1', [runId, MAX_STRIKES - 1]);
        await dies(runId, () => t.app.ctx.db.query("DELETE FROM run_nodes WHERE run_id = $1 AND node_id = 'send'", [runId]));
        next.answer(false);

        const run = await api.waitFor(runId);
        expect(run.status).toBe('FAILED');
        expect(run.result.emailsSent).toBe(3);
        expect(api.node(run, 'send')).toMatchObject({ status: 'FAILED', output: { emailsSent: 3 } });
    });

    it('does not count an interruption after progress as a strike, however many there are', async () => {
        const { runId, held } = await runUntilHeld(await workflow('progress', 8), 2);
        const third = smtp.holdAt(smtp.received + 1);
        held.answer(true);
        const next = await third;
        // Many strikes before, but this attempt sent new e-mails: its interruption resets them.
        await t.app.ctx.db.query('UPDATE runs SET strikes = $2 WHERE id = $1', [runId, MAX_STRIKES - 1]);
        await dies(runId);
        next.answer(false);

        const run = await api.waitFor(runId);
        expect(run).toMatchObject({ status: 'SUCCESS', error: null });
        expect(run.result.emailsSent).toBe(8);
    });

    it('counts the e-mails sent by a run cancelled while its worker was gone', async () => {
        const base = smtp.accepted.length;
        const { runId, held } = await runUntilHeld(await workflow('cancel', 8), 3);
        const fourth = smtp.holdAt(smtp.received + 1);
        held.answer(true);
        const next = await fourth;
        await dies(runId);
        await t.app.ctx.db.query('UPDATE runs SET cancel_requested_at = now() WHERE id = $1', [runId]);
        next.answer(false);

        const run = await api.waitFor(runId);
        expect(run.status).toBe('CANCELLED');
        expect(smtp.accepted.length - base).toBe(3);
        expect(run.result.emailsSent).toBe(3);
    });

    it('fails a run that holds its lease but makes no progress, instead of leaving it RUNNING', async () => {
        // Its own server: a short RUN_NO_PROGRESS_MS would fail the other tests' held runs too.
        const stalling = await startTestServer({
            config: { smtpUrl: smtp.url, smtp: { ...loadConfig({}).smtp, connections: 1 }, runLeaseMs: 1000, runNoProgressMs: 3000 }
        });
        const own = runsApi(stalling, await createAccount(stalling));
        const csv = ['name,email,age,city', ...Array.from({ length: 5 }, (_, i) => `P${i},stall${i}@takeover.example.test,${30 + i},Faro`)].join('\n');
        const workflowId = await own.workflow(newsletter(await own.upload(csv), 'age > 0'));
        const _base = smtp.accepted.length;
        // The third e-mail is never answered: the send hangs, the lease is still renewed.
        const third = smtp.holdAt(smtp.received + 3);
        const runId = await own.enqueue(workflowId);
        const held = await third;
        try {
            const run = await own.waitFor(runId, undefined, 60_000);
            expect(run.status).toBe('FAILED');
            expect(run.error).toMatch(/^the run made no progress for \d+ s \(no e-mail answered, no node finished\), so it was stopped$/);
            expect(run.result.emailsSent).toBe(2);
            expect(own.node(run, 'send')).toMatchObject({ status: 'FAILED', error: run.error });

            // The workflow is free again: its next run starts and ends.
            held.answer(false);
            expect((await own.run(workflowId)).result.emailsSent).toBe(5);
        } finally {
            held.answer(false);
            await stalling.close();
        }
    });
});
