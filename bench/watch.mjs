// Watching a run the way the SDK's runs.wait() does (If-None-Match + Prefer: wait=30), on the
// embedded store and on PostgreSQL: the latency from a node's status change to the waiting client's
// answer, and the requests a client makes per minute while watching a run where nothing happens.
import { SMTPServer } from 'smtp-server';

import { createWorkflow, enqueue, mailGraph, sleep, uploadCsv } from './lib/api.mjs';
import { openBench } from './lib/bench.mjs';
import { createAccount } from './lib/smtp-sink.mjs';

const TARGETS = { latencyP50Ms: 100, quietRequestsPerMinute: 4 };
const SAMPLES = 30;
const QUIET_MS = 60_000;
const WAIT = 'wait=30';

const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Accepts every e-mail, except those to @hold.test, which wait until release(address). */
const startSink = async () => {
    const otps = new Map();
    const held = new Map();
    const arrived = new Map();
    const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, session, callback) {
            const to = session.envelope.rcptTo[0]?.address ?? '';
            const chunks = [];
            stream.on('data', (chunk) => chunks.push(chunk));
            stream.on('end', () => {
                const code = /verification code is (\d{6})/.exec(Buffer.concat(chunks).toString('utf8'))?.[1];
                if (code) {
                    otps.set(to, code);
                }

                if (to.endsWith('@hold.test')) {
                    held.set(to, callback);
                    arrived.get(to)?.();
                } else {
                    callback();
                }
            });
        }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        url: `smtp://127.0.0.1:${server.server.address().port}`,
        otp: (email) => otps.get(email),
        /** Resolves once the e-mail to `to` is being held. */
        arrival: (to) => (held.has(to) ? Promise.resolve() : new Promise((resolve) => arrived.set(to, resolve))),
        release(to) {
            held.get(to)?.();
            held.delete(to);
        },
        close: () => new Promise((resolve) => server.close(resolve))
    };
};

const bench = async (store) =>
    openBench(store, await startSink(), env, [52, 14, 8], async ({ server, sink, report }) => {
        const auth = { authorization: `Bearer ${(await createAccount(server, sink)).token}` };

        /** A workflow sending one e-mail to `to`, which the sink holds until released. */
        const mailTo = async (to) => createWorkflow(server, auth, 'watch bench', mailGraph(await uploadCsv(server, auth, `name,email\nBench,${to}\n`, 'one.csv')));

        /** One watch request as runs.wait() sends it: the run (or null for 304) and when it arrived. */
        const poll = async (runId, etag) => {
            const res = await fetch(`${server.url}/api/workflows/runs/${runId}`, { headers: { ...auth, ...(etag ? { 'if-none-match': etag, prefer: WAIT } : {}) } });
            const at = Date.now();
            const run = res.status === 304 ? null : await res.json();
            return { run, etag: res.headers.get('etag') ?? etag, at };
        };

        // A quiet run: PENDING behind a run whose e-mail is held for the whole benchmark.
        const blocker = await mailTo('blocker@hold.test');
        await enqueue(server, auth, blocker);
        await sink.arrival('blocker@hold.test');
        const quietRun = await enqueue(server, auth, blocker);
        let quietRequests = 0;
        let watching = true;
        const quietStarted = Date.now();
        const quiet = (async () => {
            let { etag } = await poll(quietRun, null);
            quietRequests++;
            while (watching && Date.now() - quietStarted < QUIET_MS) {
                ({ etag } = await poll(quietRun, etag));
                quietRequests++;
            }
        })();

        // Latency: a run held while its OUTPUT node sends; the client waits; the e-mail is accepted.
        const latencies = [];
        const workflow = await mailTo('sample@hold.test');
        for (let i = 0; i < SAMPLES || Date.now() - quietStarted < QUIET_MS; i++) {
            const runId = await enqueue(server, auth, workflow);
            await sink.arrival('sample@hold.test');
            let { etag } = await poll(runId, null);
            const waiting = (async () => {
                for (;;) {
                    const answer = await poll(runId, etag);
                    etag = answer.etag;
                    const send = answer.run?.nodes.find((node) => node.nodeId === 'send');
                    if (send?.status === 'SUCCESS') {
                        return answer.at - Date.parse(send.completedAt);
                    }
                }
            })();
            await sleep(20);
            sink.release('sample@hold.test');
            latencies.push(await waiting);
            for (let run = await poll(runId, null); !run.run.completedAt; run = await poll(runId, null)) {
                await sleep(5);
            }
        }

        watching = false;
        await quiet;
        const perMinute = (quietRequests * 60_000) / (Date.now() - quietStarted);
        latencies.sort((a, b) => a - b);
        const p50 = percentile(latencies, 50);
        report(`node status change -> waiting client (${latencies.length}) p50`, `${p50.toFixed(0)} ms`, `< ${TARGETS.latencyP50Ms}`, p50 < TARGETS.latencyP50Ms);
        report('  p90 / max', `${percentile(latencies, 90).toFixed(0)} / ${latencies[latencies.length - 1].toFixed(0)} ms`, '(none)', true);
        report(`requests watching a quiet run (${((Date.now() - quietStarted) / 1000).toFixed(0)} s)`, `${perMinute.toFixed(1)} /min`, `<= ${TARGETS.quietRequestsPerMinute}`, perMinute <= TARGETS.quietRequestsPerMinute);
        sink.release('blocker@hold.test');
    });

// `node bench/watch.mjs postgres` measures one store only.
let ok = true;
for (const store of process.argv[2] ? [process.argv[2]] : ['embedded', 'postgres']) {
    ok = (await bench(store)) && ok;
}

process.exit(ok ? 0 : 1);
