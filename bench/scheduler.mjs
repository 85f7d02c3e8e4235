// The run scheduler as a client sees it (issue 27): trivial runs of one account from 8 clients, each
// enqueueing and waiting for SUCCESS before its next run (runs/s, and the server's CPU per run, of a
// server that has been up a while: its first thousand runs, printed apart, warm V8's compilers); the
// same runs waited on as an n8n-style client does (long-poll: `Prefer: wait=N` with the run's ETag),
// enqueue to SUCCESS as the client sees it; and authenticated reads (GET of a workflow, 16 clients).
// Embedded store. Runs are enqueued and waited for with fetch, as a Node client would (a leaner client
// polls more often per run, and the server's CPU per run rises with it); the reads go through one
// keep-alive node:http agent (load.mjs leanFetch), since fetch's own CPU, on the same 2 cores, cost the
// server about a tenth of that figure. Figures depend on what else the machine runs: compare runs made
// back to back.
import Fs from 'node:fs';

import { check, createWorkflow, enqueue, waitRun } from './lib/api.mjs';
import { openBench } from './lib/bench.mjs';
import { createClient, leanFetch } from './lib/load.mjs';
import { createAccount, startSink } from './lib/smtp-sink.mjs';

const TARGETS = { runsPerSecond: 350, cpuMsPerRun: 6, getsPerSecond: 2500 };
const WARM_UP_RUNS = 1000;
const RUNS = 1000;
const CLIENTS = 8;
const WATCHED_RUNS = 400;
const GETS = 4000;
const GET_CLIENTS = 16;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Waits for the run's end as an n8n-style client: each answer's ETag sent back, held up to 10 s until the run changes. */
const watchRun = async (server, auth, runId) => {
    let tag = null;
    for (;;) {
        const res = await fetch(`${server.url}/api/workflows/runs/${runId}`, { headers: { ...auth, ...(tag ? { 'if-none-match': tag, prefer: 'wait=10' } : {}) } });
        if (res.status === 304) {
            await res.arrayBuffer();
            continue;
        }

        const run = await check(res, 200, 'watch run');
        if (run.completedAt) {
            return run;
        }

        tag = res.headers.get('etag');
    }
};
const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

/** CPU time (user + system) of a process so far, in ms. */
const cpuMs = (pid) => {
    const fields = Fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

const met = await openBench('embedded', await startSink(), env, [44, 16, 10], async ({ server, sink, report }) => {
    const { token } = await createAccount(server, sink);
    const auth = { authorization: `Bearer ${token}` };
    const client = createClient(GET_CLIENTS);
    const send = leanFetch(client);
    const trigger = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
    const workflows = [];
    for (let i = 0; i < CLIENTS; i++) {
        workflows.push(await createWorkflow(server, auth, 'bench', trigger));
        await waitRun(server, auth, await enqueue(server, auth, workflows[i]), 5);
    }

    /** `count` trivial runs, CLIENTS at a time, each waited for before the next; runs/s and the server's CPU per run. */
    const trivialRuns = async (count) => {
        let next = 0;
        const cpuBefore = cpuMs(server.pid);
        const started = performance.now();
        await Promise.all(
            workflows.map(async (workflowId) => {
                while (next < count) {
                    next++;
                    const run = await waitRun(server, auth, await enqueue(server, auth, workflowId), 2);
                    if (run.status !== 'SUCCESS') {
                        throw new Error(`a run ended ${run.status}`);
                    }
                }
            })
        );
        return { rate: count / ((performance.now() - started) / 1000), cpuPerRun: (cpuMs(server.pid) - cpuBefore) / count };
    };

    // A server just started spends a third of its CPU on V8's compilers for its first thousand runs
    // (the database's WebAssembly tiers up in the background, the JavaScript is optimized): printed,
    // then the figures of a server that has been up a while, as a service is measured.
    const cold = await trivialRuns(WARM_UP_RUNS);
    const { rate, cpuPerRun } = await trivialRuns(RUNS);
    report(`trivial runs, one account, ${CLIENTS} clients`, `${rate.toFixed(0)} runs/s`, `>= ${TARGETS.runsPerSecond}`, rate >= TARGETS.runsPerSecond);
    report('  server CPU per run (polls included)', `${cpuPerRun.toFixed(1)} ms`, `<= ${TARGETS.cpuMsPerRun}`, cpuPerRun <= TARGETS.cpuMsPerRun);
    report(`  the server's first ${WARM_UP_RUNS} runs (warming up)`, `${cold.rate.toFixed(0)} runs/s`, '(none)', true);
    report('  their server CPU per run', `${cold.cpuPerRun.toFixed(1)} ms`, '(none)', true);

    // n8n-style: enqueue, then long-poll the run detail until it has ended; enqueue to SUCCESS as seen.
    const latencies = [];
    let watched = 0;
    const watchCpuBefore = cpuMs(server.pid);
    const watchStarted = performance.now();
    await Promise.all(
        workflows.map(async (workflowId) => {
            while (watched < WATCHED_RUNS) {
                watched++;
                const at = performance.now();
                const run = await watchRun(server, auth, await enqueue(server, auth, workflowId));
                latencies.push(performance.now() - at);
                if (run.status !== 'SUCCESS') {
                    throw new Error(`a watched run ended ${run.status}`);
                }
            }
        })
    );
    const watchRate = WATCHED_RUNS / ((performance.now() - watchStarted) / 1000);
    latencies.sort((a, b) => a - b);
    report(`long-poll (Prefer: wait), ${CLIENTS} clients`, `${watchRate.toFixed(0)} runs/s`, '(none)', true);
    report('  enqueue to SUCCESS seen, p50 / p99', `${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 99).toFixed(1)} ms`, '(none)', true);
    report('  server CPU per run', `${((cpuMs(server.pid) - watchCpuBefore) / WATCHED_RUNS).toFixed(1)} ms`, '(none)', true);

    // Authenticated reads: GET of a workflow, GET_CLIENTS at a time.
    let read = 0;
    const readStarted = performance.now();
    await Promise.all(
        Array.from({ length: GET_CLIENTS }, async (_, i) => {
            while (read < GETS) {
                read++;
                await check(await send(`${server.url}/api/workflows/${workflows[i % CLIENTS]}`, { headers: auth }), 200, 'get workflow');
            }
        })
    );
    const getRate = GETS / ((performance.now() - readStarted) / 1000);
    report(`authenticated GET (${GET_CLIENTS} clients)`, `${getRate.toFixed(0)} req/s`, `>= ${TARGETS.getsPerSecond}`, getRate >= TARGETS.getsPerSecond);
    client.close();
});

console.log(met ? 'all targets met' : 'some targets missed');
