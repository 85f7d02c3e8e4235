// Runs through the built server, on the embedded store and on PostgreSQL: enqueue throughput and
// latency (of a server that has been up a while: its first 2,000 enqueues, printed apart, warm V8's
// compilers), enqueue-to-RUNNING pickup latency (from the run's own timestamps, both taken by the
// database clock), and e-mail throughput of one 10,000-row run into a local SMTP sink.
import { createWorkflow as create, enqueue as enqueueRun, uploadCsv, waitRun } from './lib/api.mjs';
import { openBench } from './lib/bench.mjs';
import { createClient, leanFetch } from './lib/load.mjs';
import { createAccount, startSink } from './lib/smtp-sink.mjs';

// Issue 27's enqueue targets: 550 req/s on the embedded store, 1,000 on PostgreSQL, p99 at most 100 ms.
const TARGETS = { enqueuesPerSecond: { embedded: 550, postgres: 1000 }, enqueueP99Ms: 100, pickupP50Ms: 50, emailsPerSecond: 500 };

const ENQUEUES = 2000;
const CONCURRENCY = 16;
const PICKUPS = 200;
const EMAIL_ROWS = 10_000;

const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (iso) => new Date(iso).getTime();

const bench = async (store) =>
    openBench(store, await startSink(), env, [46, 16, 10], async ({ server, sink, report }) => {
        const { token } = await createAccount(server, sink);
        const auth = { authorization: `Bearer ${token}` };
        const createWorkflow = (graph) => create(server, auth, 'bench', graph);
        // One keep-alive node:http agent (load.mjs leanFetch), so that the client's CPU skews the figures less.
        const client = createClient(CONCURRENCY);
        const send = leanFetch(client);
        const enqueue = (workflowId) => enqueueRun(server, auth, workflowId, send);
        const waitTerminal = (runId, pollMs = 10) => waitRun(server, auth, runId, pollMs, send);

        // Enqueue: a small workflow per client, all enqueued at once; the worker drains them meanwhile.
        const trigger = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
        const workflows = [];
        for (let i = 0; i < CONCURRENCY; i++) {
            workflows.push(await createWorkflow(trigger));
        }

        for (const workflowId of workflows) {
            await waitTerminal(await enqueue(workflowId));
        }

        /** `count` enqueues, CONCURRENCY at a time, then waits for the runs' ends; the figures. */
        const enqueueMany = async (count) => {
            const latencies = [];
            const runIds = [];
            let next = 0;
            const started = performance.now();
            await Promise.all(
                workflows.map(async (workflowId) => {
                    while (next < count) {
                        next++;
                        const at = performance.now();
                        runIds.push(await enqueue(workflowId));
                        latencies.push(performance.now() - at);
                    }
                })
            );
            const rate = (count * 1000) / (performance.now() - started);
            latencies.sort((a, b) => a - b);
            for (const runId of runIds.slice(-CONCURRENCY)) {
                await waitTerminal(runId, 50);
            }

            return { rate, latencies, drainRate: (count * 1000) / (performance.now() - started) };
        };

        // As in scheduler.mjs: a server just started spends much of its CPU on V8's compilers at first.
        const cold = await enqueueMany(ENQUEUES);
        const { rate, latencies, drainRate } = await enqueueMany(ENQUEUES);
        const enqueueTarget = TARGETS.enqueuesPerSecond[store];
        report(`enqueue (${ENQUEUES}, ${CONCURRENCY} at a time)`, `${rate.toFixed(0)} req/s`, `>= ${enqueueTarget}`, rate >= enqueueTarget);
        const p99 = percentile(latencies, 99);
        report('  enqueue latency p50 / p99', `${percentile(latencies, 50).toFixed(1)} / ${p99.toFixed(1)} ms`, `p99 <= ${TARGETS.enqueueP99Ms}`, p99 <= TARGETS.enqueueP99Ms);
        report('  runs executed, enqueue start to last done', `${drainRate.toFixed(0)} runs/s`, '(none)', true);
        report(`  the server's first ${ENQUEUES} (warming up)`, `${cold.rate.toFixed(0)} req/s`, '(none)', true);

        // Pickup: one run at a time on an idle worker, enqueue to RUNNING by the database's clock.
        const idle = await createWorkflow(trigger);
        const pickups = [];
        for (let i = 0; i < PICKUPS; i++) {
            const run = await waitTerminal(await enqueue(idle), 5);
            pickups.push(ms(run.startedAt) - ms(run.createdAt));
        }

        pickups.sort((a, b) => a - b);
        const p50 = percentile(pickups, 50);
        report(`pickup enqueue -> RUNNING (${PICKUPS} runs) p50`, `${p50.toFixed(0)} ms`, `< ${TARGETS.pickupP50Ms}`, p50 < TARGETS.pickupP50Ms);
        report('  pickup p99', `${percentile(pickups, 99).toFixed(0)} ms`, '(none)', true);

        // E-mail: one run sending one message per row of a 10,000-row upload.
        const lines = ['name,email,city'];
        for (let i = 0; i < EMAIL_ROWS; i++) {
            lines.push(`Person ${i},person${i}@example.test,City ${i % 50}`);
        }

        const uploadId = await uploadCsv(server, auth, `${lines.join('\n')}\n`, 'people.csv');
        const mailer = await createWorkflow({
            nodes: [
                { id: 'start', type: 'TRIGGER', data: {} },
                { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
                { id: 'send', type: 'OUTPUT', data: { forEach: '{{people.rows}}', to: '{{item.email}}', subject: 'Hello {{item.name}}', body: 'Hi {{item.name}},\nsee you in {{item.city}}.' } }
            ],
            edges: [
                { source: 'start', target: 'people' },
                { source: 'people', target: 'send' }
            ]
        });
        const sunk = sink.count;
        const run = await waitTerminal(await enqueue(mailer), 100);
        const output = run.nodes.find((node) => node.nodeId === 'send');
        if (run.status !== 'SUCCESS' || run.result.emailsSent !== EMAIL_ROWS || sink.count - sunk !== EMAIL_ROWS) {
            throw new Error(`the e-mail run ended ${run.status} with ${run.result.emailsSent} sent, the sink got ${sink.count - sunk}: ${JSON.stringify(output)}`);
        }

        const perSecond = (EMAIL_ROWS * 1000) / (ms(output.completedAt) - ms(output.startedAt));
        report(`e-mails, one ${EMAIL_ROWS.toLocaleString('en')}-row run (OUTPUT node)`, `${perSecond.toFixed(0)} /s`, `>= ${TARGETS.emailsPerSecond}`, perSecond >= TARGETS.emailsPerSecond);
        report('  whole run, enqueue to SUCCESS', `${((ms(run.completedAt) - ms(run.createdAt)) / 1000).toFixed(1)} s`, '(none)', true);
        client.close();
    });

const started = performance.now();
let allMet = true;
for (const store of ['embedded', 'postgres']) {
    allMet = (await bench(store)) && allMet;
}

console.log(`${allMet ? 'all targets met' : 'some targets missed'} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
