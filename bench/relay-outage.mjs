// Issue 30 §2: a 2,000-row run whose relay is stopped part-way for --outage=S seconds (default 20;
// the issue's case is 150). Prints the rows that failed (target 0), the e-mails delivered twice, and
// how long the run took to finish once the relay was back. SMTP_RETRY_FOR_MS (how long sending
// waits for a relay that is down before the run fails) is scaled to 2 x the outage and printed: with
// the default 120 s, an outage of 150 s fails the run, as it should.
import { check } from './lib/api.mjs';
import { startServer } from './lib/server.mjs';
import { createMailWorkflow, startSink } from './lib/smtp-sink.mjs';

/** `node bench/relay-outage.mjs --outage=150 --rows=2000` */
const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ROWS = arg('rows', 2000);
const OUTAGE_S = arg('outage', 20);
const STOP_AFTER = Math.round(ROWS * 0.15);
const retryForMs = OUTAGE_S * 2000;
const env = {
    RATE_LIMIT_PER_ACCOUNT: '100000000',
    RATE_LIMIT_PER_IP: '100000000',
    SMTP_RETRY_FOR_MS: String(retryForMs),
    // Must exceed SMTP_RETRY_FOR_MS + the send and data timeouts (config.ts).
    RUN_NO_PROGRESS_MS: String(retryForMs + 300_000 + 600_000 + 60_000)
};

const sink = await startSink({ delayMs: 5, track: true });
const server = await startServer({ env: { ...env, SMTP_URL: sink.url } });
try {
    const { workflowId, auth } = await createMailWorkflow(server, sink, ROWS);
    sink.reset();
    const { runId } = await check(await fetch(`${server.url}/api/workflows/${workflowId}/run`, { method: 'POST', headers: auth }), 202, 'enqueue');
    while (sink.arrivals.length < STOP_AFTER) {
        await new Promise((resolve) => setTimeout(resolve, 5));
    }

    await sink.stop();
    let waiting = null;
    const stoppedAt = Date.now();
    while (Date.now() - stoppedAt < OUTAGE_S * 1000) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const run = await check(await fetch(`${server.url}/api/workflows/runs/${runId}`, { headers: auth }), 200, 'get run');
        waiting ??= run.nodes.find((node) => node.nodeId === 'send')?.output?.waiting ?? null;
    }

    const arrivedBefore = sink.arrivals.length;
    await sink.start();
    const backAt = Date.now();
    const backAtPerf = performance.now();
    let run;
    do {
        await new Promise((resolve) => setTimeout(resolve, 100));
        run = await check(await fetch(`${server.url}/api/workflows/runs/${runId}`, { headers: auth }), 200, 'get run');
    } while (!run.completedAt);

    const finishedAfterS = (new Date(run.completedAt).getTime() - backAt) / 1000;
    // Where that time went: waiting for a probe to find the relay back, then sending what was left.
    const after = sink.arrivals.slice(arrivedBefore);
    const firstAfterS = after.length ? ((after[0] - backAtPerf) / 1000).toFixed(1) : '-';
    const lastAfterS = after.length ? ((after.at(-1) - backAtPerf) / 1000).toFixed(1) : '-';
    /** E-mails accepted per second over `list` (performance.now() times). */
    const rate = (list) => (list.length > 1 ? Math.round(((list.length - 1) * 1000) / (list.at(-1) - list[0])) : 0);
    const received = sink.perRecipient;
    const twice = [...received.values()].filter((n) => n > 1).length;
    const failed = ROWS - run.result.emailsSent - (run.result.unknownOutcome ?? 0);
    console.log(`relay stopped ${OUTAGE_S} s after ${STOP_AFTER} of ${ROWS} rows (SMTP_RETRY_FOR_MS=${retryForMs}, scaled 2 x the outage; --outage=S sets it)`);
    console.log(`node said while held: ${waiting ?? '(nothing)'}`);
    console.log(`${'rows failed'.padEnd(44)} ${String(failed).padStart(8)}   target 0 ${failed === 0 ? 'ok' : 'MISSED'}`);
    console.log(`${'rows delivered more than once'.padEnd(44)} ${String(twice).padStart(8)}   (possiblyDuplicated ${run.result.possiblyDuplicated ?? 0})`);
    console.log(`${'first e-mail accepted after the relay was back'.padEnd(44)} ${`${firstAfterS} s`.padStart(8)}   (${after.length} accepted since, the last at ${lastAfterS} s)`);
    console.log(`${'e-mails a second before the stop, after the return'.padEnd(44)} ${`${rate(sink.arrivals.slice(0, arrivedBefore))}`.padStart(8)}   ${rate(after)}`);
    console.log(`${'run finished after the relay was back'.padEnd(44)} ${`${finishedAfterS.toFixed(1)} s`.padStart(8)}   (${run.status}, ${received.size} recipients reached)`);
    process.exitCode = failed === 0 && run.status === 'SUCCESS' ? 0 : 1;
} finally {
    await server.stop();
    await sink.close();
}
