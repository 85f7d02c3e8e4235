// The run scheduler as a client sees it (issue 27): trivial runs of one account from 8 clients, each
// enqueueing and waiting for SUCCESS before its next run (runs/s, and the server's CPU per run).
// Embedded store. Figures depend on what else the machine runs: compare runs made back to back.
import Fs from 'node:fs';

import { createWorkflow, enqueue, waitRun } from './lib/api.mjs';
import { openBench } from './lib/bench.mjs';
import { createAccount, startSink } from './lib/smtp-sink.mjs';

const TARGETS = { runsPerSecond: 350, cpuMsPerRun: 6 };
const RUNS = 500;
const CLIENTS = 8;
const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

/** CPU time (user + system) of a process so far, in ms. */
const cpuMs = (pid) => {
    const fields = Fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

const met = await openBench('embedded', await startSink(), env, [44, 16, 10], async ({ server, sink, report }) => {
    const { token } = await createAccount(server, sink);
    const auth = { authorization: `Bearer ${token}` };
    const trigger = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
    const workflows = [];
    for (let i = 0; i < CLIENTS; i++) {
        workflows.push(await createWorkflow(server, auth, 'bench', trigger));
        await waitRun(server, auth, await enqueue(server, auth, workflows[i]), 5);
    }

    let next = 0;
    const cpuBefore = cpuMs(server.pid);
    const started = performance.now();
    await Promise.all(
        workflows.map(async (workflowId) => {
            while (next < RUNS) {
                next++;
                const run = await waitRun(server, auth, await enqueue(server, auth, workflowId), 2);
                if (run.status !== 'SUCCESS') {
                    throw new Error(`a run ended ${run.status}`);
                }
            }
        })
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuPerRun = (cpuMs(server.pid) - cpuBefore) / RUNS;
    const rate = RUNS / seconds;
    report(`trivial runs, one account, ${CLIENTS} clients`, `${rate.toFixed(0)} runs/s`, `>= ${TARGETS.runsPerSecond}`, rate >= TARGETS.runsPerSecond);
    report('  server CPU per run (polls included)', `${cpuPerRun.toFixed(1)} ms`, `<= ${TARGETS.cpuMsPerRun}`, cpuPerRun <= TARGETS.cpuMsPerRun);
});

console.log(met ? 'all targets met' : 'some targets missed');
