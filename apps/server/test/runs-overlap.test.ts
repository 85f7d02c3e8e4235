import Path from 'node:path';
import { performance } from 'node:perf_hooks';

import type { Job } from 'agenda';
import type pg from 'pg';
import Pino from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.js';
import { senderDomain } from '../src/mail/compose.js';
import { runDeps } from '../src/services/run-deps.js';
import type { Db } from '../src/store/db.js';
import { type DrainEnv, drainWorkflow } from '../src/worker/drain.js';
import { createRunMetrics } from '../src/worker/metrics.js';
import { RunSlots } from '../src/worker/slots.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

// A drain whose lease expired while its process was held up (an event loop frozen past the lease, as
// a huge request body did; Agenda then logs "drain-workflow canceled, execution took more than …" and
// gives its place to another job) is still executing when a new drain of the same workflow, in the
// same process, takes the lease and resumes the run. The new one must not start before the old one
// has stopped: else it reads the old one's e-mails under way as of unknown outcome and sends them again.

const LEASE_MS = 1000;
const CONNECTIONS = 4;
const ROWS = 40;

/** Holds this process's event loop (the server, its worker and the SMTP sink in it) for `ms`. */
const holdEventLoop = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
        // Nothing else may run: that is the point.
    }
};

/**
 * The app's store, but the answer to a lease take arrives `lateMs` after the take was made: the drain
 * holds the lease in the database while it does not know it yet.
 */
const slowLeaseTake = (db: Db, lateMs: number): Db => {
    const pool = Object.create(db.pool) as pg.Pool;
    pool.query = (async (config: unknown, values?: unknown[]) => {
        const answer = await db.pool.query(config as pg.QueryConfig, values);
        if ((config as { name?: string }).name === 'flowctl_leases_acquireLease') {
            await new Promise((resolve) => setTimeout(resolve, lateMs));
        }

        return answer;
    }) as pg.Pool['query'];
    return { ...db, pool };
};

/** A second drain of this process, as Agenda would start one: the worker's code over the app's store, queue and mailer. */
const secondDrain = (t: TestServer, log: Pino.Logger, takeLateMs = 0): DrainEnv => ({
    db: takeLateMs > 0 ? slowLeaseTake(t.app.ctx.db, takeLateMs) : t.app.ctx.db,
    mailer: t.app.ctx.mailer,
    mailConcurrency: CONNECTIONS * 8,
    aiConcurrency: 1,
    aiRetryBudgetMs: 1000,
    journalDir: Path.join(t.config.dataDir, 'journal'),
    log,
    queue: t.app.ctx.queue,
    deps: runDeps(t.app.ctx, t.app.services),
    metrics: createRunMetrics(new Registry()),
    leaseMs: LEASE_MS,
    noProgressMs: 60_000,
    messageDomain: senderDomain(t.config.mailFrom),
    runMemoryBytes: 512 * 1024 * 1024,
    waitingRunBytes: 64 * 1024 * 1024,
    holder: 'second-drain',
    interruptions: new Map(),
    slots: new RunSlots(1),
    drainPlacesFull: () => false,
    stopping: false
});

/**
 * Holds the process past the lease, then starts a second drain of the workflow here, as a job Agenda
 * handed out again would, until that drain took the lease from the old one still executing. On
 * PostgreSQL the old drain's overdue heartbeat may renew its expired lease before the second drain's
 * claim arrives (nobody had taken it: that is allowed); the second then finds it held and returns.
 */
const takeOver = async (t: TestServer, workflowId: string, takeLateMs = 0): Promise<{ second: Promise<void> }> => {
    for (let attempt = 1; attempt <= 10; attempt++) {
        let tookOver = false;
        // The drain says so once it holds the lease and sees the older drain still executing here.
        const log = Pino({ level: 'warn' }, {
            write(line: string) {
                tookOver ||= line.includes('an older drain of the workflow lost its lease');
            }
        });
        holdEventLoop(LEASE_MS * 1.5);
        let settled = false;
        const second = drainWorkflow(secondDrain(t, log, takeLateMs), workflowId, { attrs: {} } as Job).finally(() => {
            settled = true;
        });
        while (!tookOver && !settled) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            // A take that answers late: the database says who holds the lease before the drain knows.
            tookOver ||=
                takeLateMs > 0 &&
                (await t.app.ctx.db.one<{ holder: string }>('SELECT holder FROM workflow_leases WHERE workflow_id = $1', [workflowId]))?.holder === 'second-drain';
        }

        if (tookOver) {
            // Wrapped: an async function returning the promise itself would wait for it to settle.
            return { second };
        }
    }

    throw new Error('the second drain never took the lease over');
};

describe('runs: a drain that outlives its lease in its own process', () => {
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;

    beforeAll(async () => {
        t = await startTestServer({ config: { runConcurrency: 1, runLeaseMs: LEASE_MS, smtp: { ...loadConfig({}).smtp, connections: CONNECTIONS } } });
        account = await createAccount(t);
        api = runsApi(t, account);
    });
    afterAll(() => t.close());

    // Whichever learns first that the lease changed hands: the new drain, once its take answers, or the
    // old execution, from its own renewal while that answer is still on its way (seen on a loaded machine).
    it.each([
        ['the new drain learns first', 0],
        ["the old execution's renewal learns first", LEASE_MS]
    ])('stops the old execution before the new one starts, its e-mails under way let finish (%s): every e-mail arrives once, every count exact', async (_, takeLateMs) => {
        const recipients = Array.from({ length: ROWS }, (_, i) => `p${i}.${takeLateMs}@overlap.example.test`);
        const csv = ['name,email,age,city', ...recipients.map((email, i) => `P${i},${email},${30 + i},Porto`)].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        const messagesBefore = t.smtp.messages.length;
        const smtpAttemptsBefore = t.smtp.attempts;
        // One e-mail per connection goes out and waits for its answer; the others wait for a connection.
        const held = t.smtp.hold(CONNECTIONS);
        const runId = await api.enqueue(workflowId);
        await held;
        const attemptsBefore = await t.app.ctx.db.one<{ takeovers: number }>('SELECT takeovers FROM runs WHERE id = $1', [runId]);

        const { second } = await takeOver(t, workflowId, takeLateMs);

        // Had the new drain resumed the run at once, it would have read the held e-mails as unknown
        // and queued them again by now.
        const deadline = Date.now() + 1500;
        while (Date.now() < deadline) {
            const now = await t.app.ctx.db.one<{ takeovers: number }>('SELECT takeovers FROM runs WHERE id = $1', [runId]);
            if (now!.takeovers !== attemptsBefore!.takeovers) {
                break;
            }

            await new Promise((resolve) => setTimeout(resolve, 20));
        }

        const claimedBeside = (await t.app.ctx.db.one<{ takeovers: number }>('SELECT takeovers FROM runs WHERE id = $1', [runId]))!.takeovers !== attemptsBefore!.takeovers;
        t.smtp.release();
        const run = await api.waitFor(runId, undefined, 60_000);
        await second;

        // The new drain resumed the run only once the old one had stopped (its held e-mails answered).
        expect(claimedBeside).toBe(false);
        expect((await t.app.ctx.db.one<{ takeovers: number }>('SELECT takeovers FROM runs WHERE id = $1', [runId]))!.takeovers).toBe(attemptsBefore!.takeovers + 1);

        expect(run.error).toBeNull();
        expect(run.status).toBe('SUCCESS');
        expect(run.result).toEqual({ totalRows: ROWS, filteredOut: 0, emailsSent: ROWS });
        expect(api.node(run, 'send').output).toMatchObject({ emailsSent: ROWS });
        const copies = new Map<string, number>();
        for (const message of t.smtp.messages.slice(messagesBefore)) {
            for (const to of message.to) {
                copies.set(to, (copies.get(to) ?? 0) + 1);
            }
        }

        expect(new Set(copies.keys())).toEqual(new Set(recipients));
        expect([...copies.entries()].filter(([, n]) => n > 1)).toEqual([]);
        expect(t.smtp.attempts - smtpAttemptsBefore).toBe(ROWS);
    });

    it('counts every element a relay refuses once: as many failures as elements, each recipient tried once', async () => {
        const recipients = Array.from({ length: ROWS }, (_, i) => `r${i}@refused.example.test`);
        const csv = ['name,email,age,city', ...recipients.map((email, i) => `R${i},${email},${30 + i},Porto`)].join('\n');
        const workflowId = await api.workflow(newsletter(await api.upload(csv), 'age > 0'));
        const tried = () => recipients.reduce((sum, to) => sum + (t.smtp.rcpts.get(to) ?? 0), 0);
        const refusal = { code: 554, message: '5.7.1 delivery not authorized' };
        // Every recipient is refused (a policy refusal: nobody is added to the suppression list).
        t.smtp.refuseRecipients(refusal, 20);
        const runId = await api.enqueue(workflowId);
        while (tried() < 8) {
            await new Promise((resolve) => setTimeout(resolve, 5));
        }

        // The next refusal on each connection takes long: those e-mails are under way as the process is held.
        t.smtp.refuseRecipients(refusal, 2500);
        const slow = tried() + CONNECTIONS;
        while (tried() < slow) {
            await new Promise((resolve) => setTimeout(resolve, 5));
        }

        const before = (await t.app.ctx.db.one<{ takeovers: number }>('SELECT takeovers FROM runs WHERE id = $1', [runId]))!.takeovers;
        // Refusals stay slow until the second drain holds the lease: otherwise the old drain, free
        // again, could finish the run's last elements first and there would be nothing to take over.
        const { second } = await takeOver(t, workflowId);
        t.smtp.refuseRecipients(refusal, 20);
        const run = await api.waitFor(runId, undefined, 60_000);
        await second;

        // The new drain finished the run (resumed once), the old one's refusals recorded before it did.
        expect((await t.app.ctx.db.one<{ takeovers: number }>('SELECT takeovers FROM runs WHERE id = $1', [runId]))!.takeovers).toBe(before + 1);

        expect(run.status).toBe('FAILED');
        expect(run.error).toMatch(new RegExp(`^node 'send' failed: ${ROWS} of ${ROWS} e-mails failed: #0: the mail transport rejected it: .*5\\.7\\.1 delivery not authorized`));
        expect(run.result).toEqual({ totalRows: ROWS, filteredOut: 0, emailsSent: 0 });
        expect(api.node(run, 'send').output).toEqual({ emailsSent: 0 });
        // Each recipient was tried once in the run: none sent again, none left out.
        expect(recipients.filter((to) => t.smtp.rcpts.get(to) !== 1)).toEqual([]);
        const ledger = await t.app.ctx.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM deliveries WHERE run_id = $1 GROUP BY status', [runId]);
        expect(ledger).toEqual([{ status: 'FAILED', n: ROWS }]);
    });
});
