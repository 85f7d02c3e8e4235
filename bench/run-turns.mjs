// Issue 27 part 1, as a client of another account sees it (embedded store, one server, RUN_CONCURRENCY 4):
// - one account floods the queue (8 clients enqueueing trivial runs of 40 workflows, 400 queued before
//   the first sample and more all along): how long another account's run waits
//   from enqueue to RUNNING (by the database clock), 20 runs one after another, each of a new workflow;
// - 10 accounts each hold 2 runs waiting on a model that answers after 50 s: the same wait, and the
//   server's RSS meanwhile (runs waiting on the network hold no slot, and no more than their budget).
// Figures depend on what else the machine runs: compare runs made back to back.
import Http from 'node:http';

import { createWorkflow, enqueue, getRun, sleep, uploadCsv, waitToStart as waitOf } from './lib/api.mjs';
import { percentile, reporter } from './lib/bench.mjs';
import { mb, processRss } from './lib/memory.mjs';
import { createAccount, startServer } from './lib/server.mjs';

const TARGETS = { floodWaitMs: 1_000, modelWaitMs: 5_000 };
const SAMPLES = 20;
const FLOOD = { workflows: 40, clients: 8, before: 400 };
const MODEL_DELAY_MS = 50_000;
const WAITING = { accounts: 10, runsEach: 2 };
const GIVE_UP_MS = 60_000;

const { report, met } = reporter();

/** A model that answers every call after MODEL_DELAY_MS (connections kept open meanwhile). */
const startSlowModel = async () => {
    let calls = 0;
    const server = Http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
            calls++;
            const timer = setTimeout(() => {
                res.writeHead(200, { 'content-type': 'application/json' });
                res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ word: 'slow' }) }, finish_reason: 'stop' }] }));
            }, MODEL_DELAY_MS);
            res.on('close', () => clearTimeout(timer));
        });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        url: `http://127.0.0.1:${server.address().port}/v1`,
        calls: () => calls,
        close: () => {
            server.closeAllConnections();
            return new Promise((resolve) => server.close(resolve));
        }
    };
};

const waitToStart = (server, auth) => waitOf(server, auth, GIVE_UP_MS);

const trigger = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };

/** Account auth headers. */
const signUp = async (server) => ({ authorization: `Bearer ${(await createAccount(server)).token}` });

/** SAMPLES waits, one after another; stops at the first one over 3 x `target` (the p99 is missed then). */
const samples = async (server, auth, target) => {
    const waits = [];
    for (let i = 0; i < SAMPLES; i++) {
        waits.push(await waitToStart(server, auth));
        if (waits.at(-1) > 3 * target) {
            break;
        }
    }

    return waits;
};

const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000', RUN_CONCURRENCY: '4' };

// 1. A flood of one account.
{
    const server = await startServer({ env });
    try {
        const flooder = await signUp(server);
        const other = await signUp(server);
        const workflows = [];
        for (let i = 0; i < FLOOD.workflows; i++) {
            workflows.push(await createWorkflow(server, flooder, `flood ${i}`, trigger));
        }

        // The flood goes on while the samples are taken: FLOOD.clients enqueue without waiting, round-robin
        // over the workflows (faster than the runs end, so the backlog grows).
        const runs = [];
        let flooding = true;
        const clients = Array.from({ length: FLOOD.clients }, async (_, c) => {
            for (let i = c; flooding; i += FLOOD.clients) {
                runs.push(await enqueue(server, flooder, workflows[i % workflows.length]));
            }
        });
        while (runs.length < FLOOD.before) {
            await sleep(20);
        }

        const waits = await samples(server, other, TARGETS.floodWaitMs);
        flooding = false;
        await Promise.all(clients);
        const last = await getRun(server, flooder, runs.at(-1));
        report(`flood (${runs.length} runs, ${FLOOD.workflows} workflows): another account's wait p99`, `${percentile(waits, 99)} ms`, `<= ${TARGETS.floodWaitMs} ms`, percentile(waits, 99) <= TARGETS.floodWaitMs);
        report('  p50', `${percentile(waits, 50)} ms`, '(none)', true);
        report("  the flood's last run when the samples ended", last.status, 'not SUCCESS (still flooding)', last.status !== 'SUCCESS');
    } finally {
        await server.stop();
    }
}

// 2. Runs waiting 50 s on the model.
{
    const model = await startSlowModel();
    const server = await startServer({ env: { ...env, OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: model.url, AI_MODEL: 'bench-model' } });
    try {
        const perRowAi = (uploadId) => ({
            nodes: [
                { id: 'start', type: 'TRIGGER', data: {} },
                { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
                { id: 'guess', type: 'AI', data: { forEach: '{{people.rows}}', prompt: 'A word for {{item.name}}', output: [{ name: 'word', type: 'string' }] } }
            ],
            edges: [
                { source: 'start', target: 'people' },
                { source: 'people', target: 'guess' }
            ]
        });
        for (let a = 0; a < WAITING.accounts; a++) {
            const auth = await signUp(server);
            const upload = await uploadCsv(server, auth, 'name,email\nP,p@turns.bench.test\n');
            for (let r = 0; r < WAITING.runsEach; r++) {
                await enqueue(server, auth, await createWorkflow(server, auth, `slow ${a}.${r}`, perRowAi(upload)));
            }
        }

        // All of them under way at once, or as many as the server lets wait (10 s at most).
        const expected = WAITING.accounts * WAITING.runsEach;
        const until = performance.now() + 10_000;
        while (model.calls() < expected && performance.now() < until) {
            await sleep(20);
        }

        const waits = await samples(server, await signUp(server), TARGETS.modelWaitMs);
        const calls = model.calls();
        report(`${expected} runs waiting ${MODEL_DELAY_MS / 1000} s on the model: another account's wait p99`, `${percentile(waits, 99)} ms`, `<= ${TARGETS.modelWaitMs} ms`, percentile(waits, 99) <= TARGETS.modelWaitMs);
        report('  p50', `${percentile(waits, 50)} ms`, '(none)', true);
        report('  model calls under way (none answered yet)', `${calls}`, `${expected}`, calls === expected);
        report('  samples taken (stops at the first over 3 x target)', `${waits.length}`, `${SAMPLES}`, waits.length === SAMPLES);
        report('  server RSS meanwhile', mb(processRss(server.pid)?.rss), '(none)', true);
    } finally {
        await server.stop();
        await model.close();
    }
}

console.log(met() ? 'all targets met' : 'some targets missed');
