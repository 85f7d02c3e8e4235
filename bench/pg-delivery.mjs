// E-mails per second over each tenth of one big run on PostgreSQL, to a loopback sink that accepts
// at once: the figure must stay flat as the run's deliveries pile up (issue 22 §2: a prepared
// statement's cached plan read every delivery of the run on each write, so a 258,000-e-mail run fell
// from ~2,100 to ~300 e-mails/s). Kept to BENCH_PG_DELIVERY_ROWS (100,000) rows on a shared machine.
// Measured on the shared 2-core machine (other benchmarks and tests running), e-mails/s per tenth:
//   before (UPDATE joined to the outcomes): 239 294 314 226 194 171 179 141 113 121 (179/s overall)
//   after (outcomes as primary-key upserts): 505 986 1075 603 643 850 722 683 1029 987 (760/s overall)
import { startServer } from './lib/server.mjs';
import { check } from './lib/api.mjs';
import { createMailWorkflow, startSink } from './lib/smtp-sink.mjs';

// Benchmarks are not turbo tasks, so their variables are not declared in turbo.json.
const { BENCH_PG_DELIVERY_ROWS } = process.env;
const ROWS = Number(BENCH_PG_DELIVERY_ROWS || 100_000);
// The last tenth may be no slower than this share of the first.
const FLAT = 0.6;
const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

const sink = await startSink();
const server = await startServer({ store: 'postgres', env: { ...env, SMTP_URL: sink.url } });
if (!server) {
    await sink.close();
    process.exit(0);
}

try {
    const { workflowId, auth } = await createMailWorkflow(server, sink, ROWS);
    const before = sink.count;
    const { runId } = await check(await fetch(`${server.url}/api/workflows/${workflowId}/run`, { method: 'POST', headers: auth }), 202, 'enqueue');

    // When the sink's count crossed each tenth of the run.
    const marks = [];
    let started = null;
    const sampler = setInterval(() => {
        const sent = sink.count - before;
        if (started === null && sent > 0) {
            started = { at: performance.now(), sent };
        }

        while (marks.length < 10 && sent >= (ROWS * (marks.length + 1)) / 10) {
            marks.push({ at: performance.now(), sent });
        }
    }, 20);

    let run;
    do {
        await new Promise((resolve) => setTimeout(resolve, 250));
        run = await check(await fetch(`${server.url}/api/workflows/runs/${runId}`, { headers: auth }), 200, 'get run');
    } while (!run.completedAt);
    clearInterval(sampler);

    if (run.status !== 'SUCCESS' || run.result.emailsSent !== ROWS) {
        throw new Error(`the run ended ${run.status} with ${run.result.emailsSent} of ${ROWS} sent`);
    }

    const rates = [];
    let previous = started;
    for (const mark of marks) {
        rates.push(((mark.sent - previous.sent) * 1000) / Math.max(1, mark.at - previous.at));
        previous = mark;
    }

    const total = ((marks.at(-1).sent - started.sent) * 1000) / (marks.at(-1).at - started.at);
    console.log(`postgres, ${ROWS.toLocaleString('en')}-row run to a loopback sink: ${total.toFixed(0)} e-mails/s overall`);
    console.log(`e-mails/s per tenth: ${rates.map((rate) => rate.toFixed(0)).join(' ')}`);
    const flat = rates.at(-1) >= rates[0] * FLAT;
    console.log(`last tenth ${rates.at(-1).toFixed(0)}/s vs first ${rates[0].toFixed(0)}/s (target: at least ${FLAT * 100} %): ${flat ? 'ok' : 'MISSED'}`);
    process.exitCode = flat ? 0 : 1;
} finally {
    await server.stop();
    await sink.close();
}
