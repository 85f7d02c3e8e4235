// Issue 20: no number of interruptions loses an e-mail. One run of ROWS e-mails, whose worker is
// SIGKILLed KILLS times at random moments of its OUTPUT node and started again; each kill comes once
// the run has sent 50–300 more e-mails, so every interruption made progress and none counts towards
// giving the run up. Embedded: the one process is killed and started again. PostgreSQL: an API process
// stays up and its one worker process is killed; a new one takes the run over when the lease expires.
// The sink counts what arrives per recipient: a recipient with none is a lost e-mail, a second copy a
// duplicate, which the run must count in `possiblyDuplicated` (flagged).

import { createWorkflow, enqueue, mailGraph, sleep, uploadCsv, waitRun } from './lib/api.mjs';
import { startServer, startWorker } from './lib/server.mjs';
import { createAccount, createApiToken, startSink } from './lib/smtp-sink.mjs';

const KILLS = 20;
const ROWS = 10_000;
const DOMAIN = 'interruptions.bench.test';

const bench = async (store) => {
    const sink = await startSink({ track: true });
    const env = { SMTP_URL: sink.url, MAIL_FROM: `flowctl <no-reply@${DOMAIN}>`, RATE_LIMIT_PER_ACCOUNT: '1000000', RATE_LIMIT_PER_IP: '1000000' };
    const server = await startServer({ store, env, args: store === 'postgres' ? ['--role=api'] : [] });
    if (!server) {
        await sink.close();
        return true;
    }

    let worker = store === 'postgres' ? startWorker(server.env) : null;
    try {
        // Personal API token: the sign-in's session lives in the store, which outlives every kill anyway.
        const auth = { authorization: `Bearer ${await createApiToken(server, (await createAccount(server, sink)).token)}` };
        const recipients = Array.from({ length: ROWS }, (_, i) => `p${i}@${DOMAIN}`);
        const csv = `${['name,email', ...recipients.map((email, i) => `P${i},${email}`)].join('\n')}\n`;
        const workflowId = await createWorkflow(server, auth, 'interruptions', mailGraph(await uploadCsv(server, auth, csv, 'people.csv')));
        sink.reset();
        const started = performance.now();
        const runId = await enqueue(server, auth, workflowId);
        let kills = 0;
        while (kills < KILLS) {
            const due = sink.arrivals.length + 50 + Math.floor(Math.random() * 250);
            while (sink.arrivals.length < Math.min(due, ROWS)) {
                await sleep(2);
            }

            if (sink.arrivals.length >= ROWS) {
                break;
            }

            kills++;
            if (worker) {
                worker.child.kill('SIGKILL');
                await worker.exited;
                worker = startWorker(server.env);
            } else {
                await server.restart('SIGKILL');
            }
        }

        const run = await waitRun(server, auth, runId, 200);
        const seconds = (performance.now() - started) / 1000;
        const copies = recipients.map((email) => sink.perRecipient.get(email) ?? 0);
        const lost = copies.filter((n) => n === 0).length;
        const duplicated = copies.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
        const flagged = run.result?.possiblyDuplicated ?? 0;
        const met = run.status === 'SUCCESS' && kills === KILLS && lost === 0 && duplicated <= flagged;
        console.log(
            `${store.padEnd(8)} ${kills} SIGKILLs in one run of ${ROWS} e-mails: ${run.status} in ${seconds.toFixed(1)} s, emailsSent ${run.result?.emailsSent}` +
                `   lost ${lost} / duplicated ${duplicated} / flagged ${flagged}` +
                `   target: ${KILLS} kills, SUCCESS, 0 lost, every duplicate flagged  ${met ? 'met' : 'MISSED'}`
        );
        if (run.status !== 'SUCCESS') {
            console.log(`${store.padEnd(8)}   the run: ${run.error}`);
        }

        return met;
    } finally {
        if (worker) {
            worker.child.kill('SIGTERM');
            await worker.exited;
        }

        await server.stop();
        await sink.close();
    }
};

let met = true;
for (const store of ['embedded', 'postgres']) {
    met = (await bench(store)) && met;
}

console.log(met ? 'all targets met' : 'some targets missed');
process.exit(met ? 0 : 1);
