// Big runs in bounded memory (issue 19), through the built server on both stores: while one account's
// big run executes, another account's authenticated GET /api/workflows and /readyz are measured.
//  - 26,214,398 rows of one tiny column (a 50 MiB upload) through a FILTER: over RUN_MEMORY_MB, it must
//    fail at once with the figures;
//  - 1,000,000 rows `1,2` read by ten FILTERs;
//  - a realistic 50 MiB CSV of about 500,000 rows (name,email,age,city) through a FILTER and an OUTPUT
//    to a local SMTP sink.
// Each prints the time to the run's end, the server's peak RSS, the other account's GET p50/p99 and
// /readyz failures. Heavy: run it alone (`npm run bench big-runs`).
import { createWorkflow, enqueue, sleep, uploadCsv, waitRun } from './lib/api.mjs';
import { openBench } from './lib/bench.mjs';
import { realistic, realisticGraph } from './lib/realistic.mjs';
import { createAccount, startSink } from './lib/smtp-sink.mjs';

const TARGETS = { othersP99Ms: 250, readyzFailures: 0, worstRssMb: 1024, realisticRssMb: 512 };
const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };
const MB = 1024 * 1024;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

const tinyRows = () => Buffer.from(`a\n${'1\n'.repeat(26_214_398)}`.slice(0, -1));
const onesAndTwos = () => Buffer.from(`a,b\n${'1,2\n'.repeat(1_000_000)}`);
const bench = async (store) =>
    openBench(store, await startSink(), env, [52, 14, 10], async ({ server, sink, report }) => {
        const heavy = { authorization: `Bearer ${(await createAccount(server, sink)).token}` };
        const other = { authorization: `Bearer ${(await createAccount(server, sink)).token}` };
        await createWorkflow(server, other, 'other', { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] });

        const scenario = async (name, bytesOf, graphOf, { rssTarget, expect }) => {
            if (only && !name.includes(only)) {
                return;
            }

            const uploadId = await uploadCsv(server, heavy, bytesOf(), 'big.csv');
            const workflowId = await createWorkflow(server, heavy, name, graphOf(uploadId));

            const baseRss = server.rssBytes();
            let peakRss = baseRss;
            let done = false;
            const sampler = (async () => {
                while (!done) {
                    peakRss = Math.max(peakRss, server.rssBytes());
                    await sleep(50);
                }
            })();
            const latencies = [];
            let readyzFailures = 0;
            const others = (async () => {
                while (!done) {
                    const started = performance.now();
                    const res = await fetch(`${server.url}/api/workflows`, { headers: other });
                    await res.arrayBuffer();
                    latencies.push(performance.now() - started);
                    const ready = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(5000) }).then(
                        async (r) => {
                            await r.arrayBuffer();
                            return r.ok;
                        },
                        () => false
                    );
                    readyzFailures += ready ? 0 : 1;
                    await sleep(20);
                }
            })();

            const started = performance.now();
            const run = await waitRun(server, heavy, await enqueue(server, heavy, workflowId));

            const seconds = (performance.now() - started) / 1000;
            done = true;
            await Promise.all([sampler, others]);
            const sorted = latencies.sort((a, b) => a - b);
            const p99 = percentile(sorted, 99);
            console.log(`${store.padEnd(8)} ${name}: ${run.status}${run.error ? ` (${run.error.slice(0, 160)}…)` : ''}, result ${JSON.stringify(run.result)}`);
            report(`${name}: time to end`, `${seconds.toFixed(1)} s`, '-', true);
            report(`${name}: expected end`, run.status, expect, run.status === expect);
            report(`${name}: server peak RSS`, `${Math.round(peakRss / MB)} MB`, `≤ ${rssTarget} MB`, peakRss <= rssTarget * MB);
            report(`${name}: other account's GET p50 / p99`, `${percentile(sorted, 50).toFixed(0)} / ${p99.toFixed(0)} ms`, `p99 ≤ ${TARGETS.othersP99Ms}`, p99 <= TARGETS.othersP99Ms);
            report(`${name}: /readyz failures (of ${latencies.length})`, String(readyzFailures), '0', readyzFailures === TARGETS.readyzFailures);
            const storeOom = server.output.join('').includes('out of memory');
            report(`${name}: store out-of-memory errors logged`, storeOom ? 'yes' : 'none', 'none', !storeOom);
        };

        await scenario(
            '26M tiny rows → FILTER',
            tinyRows,
            (uploadId) => ({
                nodes: [
                    { id: 'start', type: 'TRIGGER', data: {} },
                    { id: 'src', type: 'DATA_SOURCE', data: { uploadId } },
                    { id: 'big', type: 'FILTER', data: { source: '{{src.rows}}', expr: 'a > 5' } }
                ],
                edges: [
                    { source: 'start', target: 'src' },
                    { source: 'src', target: 'big' }
                ]
            }),
            { rssTarget: TARGETS.worstRssMb, expect: 'FAILED' }
        );

        await scenario(
            '1M rows × 10 FILTERs',
            onesAndTwos,
            (uploadId) => ({
                nodes: [
                    { id: 'start', type: 'TRIGGER', data: {} },
                    { id: 'src', type: 'DATA_SOURCE', data: { uploadId } },
                    ...Array.from({ length: 10 }, (_, i) => ({ id: `f${i}`, type: 'FILTER', data: { source: '{{src.rows}}', expr: 'a > 5' } }))
                ],
                edges: [{ source: 'start', target: 'src' }, ...Array.from({ length: 10 }, (_, i) => ({ source: 'src', target: `f${i}` }))]
            }),
            { rssTarget: TARGETS.worstRssMb, expect: 'SUCCESS' }
        );

        const sentBefore = sink.count;
        await scenario(
            'realistic 50 MiB → FILTER → OUTPUT',
            realistic,
            (uploadId) => realisticGraph(uploadId, "age == 30 && city == 'Paris'"),
            { rssTarget: TARGETS.realisticRssMb, expect: 'SUCCESS' }
        );
        console.log(`${store.padEnd(8)} realistic run: ${sink.count - sentBefore} e-mails reached the sink`);
    });

let allMet = true;
// `node bench/big-runs.mjs postgres` runs one store only; `node bench/big-runs.mjs embedded '10 FILTERs'`
// runs only the scenarios whose name contains the second argument.
const only = process.argv[3];
for (const store of ['embedded', 'postgres'].filter((name) => !process.argv[2] || name === process.argv[2])) {
    allMet = (await bench(store)) && allMet;
}

if (!allMet) {
    console.log('some big-runs targets were missed');
}
