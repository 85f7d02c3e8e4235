// A frozen database (issue 20 §2): a private PostgreSQL cluster, a server --role api and a server --role
// worker on it. A run of FREEZE_ROWS e-mails (4,000) to a sink that takes 20 ms to accept each is
// enqueued; a quarter of the way in, every process of the cluster is SIGSTOPped for FREEZE_SECONDS (30),
// then SIGCONTed. Prints: whether the run finished and its e-mails at the sink (lost / duplicated), the
// time from SIGCONT until the worker's next run starts, how many of 18 later runs (one enqueued every
// 10 s from SIGCONT, another account's) ended within 3 minutes of SIGCONT, and /readyz during the
// freeze (503 with Retry-After, never hanging) and after. The cluster is stopped and deleted at the end.

import { createWorkflow, enqueue, getRun, mailGraph, sleep, uploadCsv } from './lib/api.mjs';
import { startPrivatePostgres } from './lib/private-postgres.mjs';
import { spawnServer, startServer } from './lib/server.mjs';
import { createAccount, startSink } from './lib/smtp-sink.mjs';

// Benchmarks are not turbo tasks, so their variables are not declared in turbo.json.
const { FREEZE_ROWS: rowsEnv, FREEZE_SECONDS: secondsEnv } = process.env;
const ROWS = Number(rowsEnv || 4000);
const FREEZE_MS = Number(secondsEnv || 30) * 1000;
const LATER_RUNS = 18;
const LATER_EVERY_MS = 10_000;
const LATER_WITHIN_MS = 180_000;
const READYZ_TIMEOUT_MS = 10_000;
const TARGETS = { nextRunStartsMs: 10_000, readyzAnswerMs: 5000 };
const DOMAIN = 'freeze.bench.test';
const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

let allMet = true;
const report = (what, value, target = '', ok = true) => {
    allMet &&= ok;
    console.log(`${what.padEnd(58)} ${String(value).padStart(16)}   ${target ? `target ${target.padEnd(14)} ${ok ? 'ok' : 'MISSED'}` : ''}`);
};

/** One /readyz: its status (0 when it did not answer within READYZ_TIMEOUT_MS), Retry-After and time. */
const readyz = async (server) => {
    const started = performance.now();
    try {
        const res = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(READYZ_TIMEOUT_MS) });
        await res.arrayBuffer();
        return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - started };
    } catch {
        return { status: 0, retryAfter: null, ms: performance.now() - started };
    }
};

const signal = (pids, name) => {
    for (const pid of pids) {
        try {
            process.kill(pid, name);
        } catch {
            // exited meanwhile
        }
    }
};

const cluster = await startPrivatePostgres();
if (!cluster) {
    process.exit(0);
}

let frozen = [];
let worker = null;
let server = null;
const sink = await startSink({ delayMs: 20, track: true });
// Interrupted (Ctrl-C): the cluster must not outlive the bench, frozen or not.
process.once('SIGINT', () => {
    signal(frozen, 'SIGCONT');
    worker?.kill('SIGKILL');
    cluster.stop();
    process.exit(130);
});

try {
    server = await startServer({ store: 'private-postgres', env: { ...env, SMTP_URL: sink.url, DATABASE_URL: cluster.url }, args: ['--role=api'] });
    const workerOutput = [];
    worker = spawnServer(['--role=worker'], { env: server.env, stdio: ['ignore', 'pipe', 'pipe'] });
    worker.stdout.on('data', (chunk) => workerOutput.push(chunk.toString()));
    worker.stderr.on('data', (chunk) => workerOutput.push(chunk.toString()));
    const workerExited = new Promise((resolve) => worker.once('exit', resolve));

    const mailer = { authorization: `Bearer ${(await createAccount(server, sink)).token}` };
    const other = { authorization: `Bearer ${(await createAccount(server, sink)).token}` };
    const lines = ['name,email', ...Array.from({ length: ROWS }, (_, i) => `P${i},p${i}@${DOMAIN}`)];
    const uploadId = await uploadCsv(server, mailer, `${lines.join('\n')}\n`, 'people.csv');
    const mailWorkflow = await createWorkflow(server, mailer, 'freeze mail', mailGraph(uploadId));
    const small = await createWorkflow(server, other, 'freeze later', { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] });

    sink.reset();
    const runId = await enqueue(server, mailer, mailWorkflow);
    while (sink.arrivals.length < ROWS / 4) {
        await sleep(10);
    }

    frozen = cluster.pids();
    signal(frozen, 'SIGSTOP');
    const frozenAt = performance.now();
    console.log(`froze ${frozen.length} PostgreSQL processes after ${sink.arrivals.length} of ${ROWS} e-mails`);
    const during = [];
    while (performance.now() - frozenAt < FREEZE_MS - 1000) {
        during.push(await readyz(server));
        await sleep(1000);
    }

    while (performance.now() - frozenAt < FREEZE_MS) {
        await sleep(20);
    }

    signal(frozen, 'SIGCONT');
    const contAt = performance.now();
    frozen = [];

    // The later runs, one every 10 s; the first one's start is the worker's next run starting.
    const later = [];
    const enqueuer = (async () => {
        for (let i = 0; i < LATER_RUNS; i++) {
            const at = contAt + i * LATER_EVERY_MS;
            await sleep(Math.max(0, at - performance.now()));
            // The API's pool may still be reconnecting: 503 is an answer, try again.
            for (;;) {
                try {
                    later.push({ runId: await enqueue(server, other, small), at: performance.now() });
                    break;
                } catch (err) {
                    if (performance.now() - contAt > LATER_WITHIN_MS) {
                        console.log(`later run ${i + 1} not enqueued: ${err.message}`);
                        return;
                    }

                    await sleep(200);
                }
            }
        }
    })();

    let firstStartMs = Number.NaN;
    const watchFirst = (async () => {
        while (later.length === 0 && performance.now() - contAt < LATER_WITHIN_MS) {
            await sleep(10);
        }

        while (later.length > 0 && performance.now() - contAt < LATER_WITHIN_MS) {
            const run = await getRun(server, other, later[0].runId).catch(() => null);
            if (run?.startedAt) {
                firstStartMs = performance.now() - contAt;
                return;
            }

            await sleep(50);
        }
    })();

    const after = [];
    let readyAgainMs = Number.NaN;
    for (let i = 0; i < 30; i++) {
        const answer = await readyz(server);
        after.push(answer);
        if (answer.status === 200 && Number.isNaN(readyAgainMs)) {
            readyAgainMs = performance.now() - contAt;
        }

        if (answer.status === 200 && after.length >= 5) {
            break;
        }

        await sleep(200);
    }

    await Promise.all([enqueuer, watchFirst]);
    // Later runs ended within 3 minutes of SIGCONT.
    let laterDone = 0;
    for (;;) {
        const runs = await Promise.all(later.map(({ runId }) => getRun(server, other, runId).catch(() => null)));
        laterDone = runs.filter((run) => run?.status === 'SUCCESS').length;
        if (laterDone === LATER_RUNS || performance.now() - contAt > LATER_WITHIN_MS) {
            break;
        }

        await sleep(500);
    }

    // The mail run: until it ends, 5 minutes at most after SIGCONT.
    let run = null;
    while (!run?.completedAt && performance.now() - contAt < 300_000) {
        run = await getRun(server, mailer, runId).catch(() => null);
        await sleep(200);
    }

    let lost = 0;
    let duplicated = 0;
    for (let i = 0; i < ROWS; i++) {
        const copies = sink.perRecipient.get(`p${i}@${DOMAIN}`) ?? 0;
        lost += copies === 0 ? 1 : 0;
        duplicated += Math.max(0, copies - 1);
    }

    const count = (answers, test) => answers.filter(test).length;
    const slowest = (answers) => Math.max(...answers.map((a) => a.ms));
    console.log(`during the freeze: /readyz answers ${JSON.stringify(during.map((a) => `${a.status || 'hung'}${a.retryAfter ? `/RA=${a.retryAfter}` : ''} ${a.ms.toFixed(0)}ms`))}`);
    console.log(`e-mails accepted at the sink while the database was frozen: ${sink.arrivals.filter((t) => t >= frozenAt && t < contAt).length}`);
    const finished = run?.status === 'SUCCESS';
    report('mail run finished', run ? `${run.status}${run.error ? ` (${run.error.slice(0, 80)})` : ''}` : 'not ended', 'SUCCESS', finished);
    report('mail run: e-mails at the sink / rows', `${sink.arrivals.length} / ${ROWS}`, '= rows', sink.arrivals.length === ROWS);
    report('mail run: lost / duplicated', `${lost} / ${duplicated}`, '0 / 0', lost + duplicated === 0);
    report('SIGCONT → the worker\'s next run starts', `${(firstStartMs / 1000).toFixed(1)} s`, `≤ ${TARGETS.nextRunStartsMs / 1000} s`, firstStartMs <= TARGETS.nextRunStartsMs);
    report(`later runs ended within ${LATER_WITHIN_MS / 60_000} min of SIGCONT`, `${laterDone} of ${LATER_RUNS}`, `${LATER_RUNS} of ${LATER_RUNS}`, laterDone === LATER_RUNS);
    const unavailable = count(during, (a) => a.status === 503 && a.retryAfter);
    report(`/readyz during the freeze: 503 + Retry-After of ${during.length}`, unavailable, `${during.length}`, unavailable === during.length);
    report('/readyz during the freeze: hung (no answer in 10 s)', count(during, (a) => a.status === 0), '0', count(during, (a) => a.status === 0) === 0);
    report('/readyz during the freeze: slowest answer', `${slowest(during).toFixed(0)} ms`, `≤ ${TARGETS.readyzAnswerMs} ms`, slowest(during) <= TARGETS.readyzAnswerMs);
    report('/readyz after SIGCONT: 200 again after', `${(readyAgainMs / 1000).toFixed(1)} s`, 'answers 200', Number.isFinite(readyAgainMs));
    if (worker.exitCode !== null) {
        console.log(`the worker exited with code ${worker.exitCode}`);
    }

    worker.kill('SIGTERM');
    const timer = setTimeout(() => worker.kill('SIGKILL'), 15_000);
    await workerExited;
    clearTimeout(timer);
    const logged = workerOutput.join('');
    if (logged) {
        console.log(`worker log (last 1500 characters):\n${logged.slice(-1500)}`);
    }
} finally {
    signal(frozen, 'SIGCONT');
    if (worker && worker.exitCode === null) {
        worker.kill('SIGKILL');
    }

    await server?.stop();
    await sink.close();
    cluster.stop();
}

console.log(allMet ? 'all freeze targets met' : 'some freeze targets missed');
process.exit(allMet ? 0 : 1);
