// E-mail delivery of one run through the built server (embedded store): against a relay that takes
// 100 ms to accept each message, like a cloud provider's SMTP endpoint, and against a loopback sink
// that accepts at once. A run sends SMTP_CONNECTIONS (default 8) messages at a time.
import { startServer } from './lib/server.mjs';
import { check } from './lib/api.mjs';
import { createMailWorkflow, startSink } from './lib/smtp-sink.mjs';

const TARGETS = { slowRelayPerSecond: 60, loopbackPerSecond: 1000 };
const SLOW_ROWS = 400;
const LOOPBACK_ROWS = 5000;
const RELAY_DELAY_MS = 100;

const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

/** E-mails per second of the OUTPUT node of one run of `rows` rows, by the run's own timestamps. */
const measure = async (delayMs, rows) => {
    const sink = await startSink({ delayMs });
    const server = await startServer({ env: { ...env, SMTP_URL: sink.url } });
    try {
        const { workflowId, auth } = await createMailWorkflow(server, sink, rows);
        const { runId } = await check(await fetch(`${server.url}/api/workflows/${workflowId}/run`, { method: 'POST', headers: auth }), 202, 'enqueue');
        let run;
        do {
            await new Promise((resolve) => setTimeout(resolve, 100));
            run = await check(await fetch(`${server.url}/api/workflows/runs/${runId}`, { headers: auth }), 200, 'get run');
        } while (!run.completedAt);

        const send = run.nodes.find((node) => node.nodeId === 'send');
        if (run.status !== 'SUCCESS' || run.result.emailsSent !== rows) {
            throw new Error(`the run ended ${run.status} with ${run.result.emailsSent} of ${rows} sent: ${JSON.stringify(send)}`);
        }

        return (rows * 1000) / (new Date(send.completedAt).getTime() - new Date(send.startedAt).getTime());
    } finally {
        await server.stop();
        await sink.close();
    }
};

const report = (what, perSecond, target) => {
    const ok = perSecond >= target;
    console.log(`${what.padEnd(52)} ${`${perSecond.toFixed(0)} /s`.padStart(10)}   target >= ${String(target).padEnd(6)} ${ok ? 'ok' : 'MISSED'}`);
    return ok;
};

const slow = await measure(RELAY_DELAY_MS, SLOW_ROWS);
const loopback = await measure(0, LOOPBACK_ROWS);
const met = [
    report(`e-mails, ${SLOW_ROWS}-row run, relay accepting in ${RELAY_DELAY_MS} ms`, slow, TARGETS.slowRelayPerSecond),
    report(`e-mails, ${LOOPBACK_ROWS.toLocaleString('en')}-row run, loopback sink`, loopback, TARGETS.loopbackPerSecond)
].every(Boolean);
console.log(met ? 'all targets met' : 'some targets missed');
process.exitCode = met ? 0 : 1;
