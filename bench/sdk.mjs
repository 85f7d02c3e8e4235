// @flowctl/sdk against the built server (embedded store): the client's overhead over raw undici for
// sequential GETs, how fast a node's status change reaches runs.wait()'s onUpdate and how many
// requests a minute watching a quiet run costs, and the client's RSS growth while a 50 MB CSV uploads.
// Build first (`npm run build`).
import { spawn } from 'node:child_process';
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Agent } from 'undici';

import { Flowctl } from '../packages/sdk/dist/index.js';
import { createAccount, startServer } from './lib/server.mjs';
import { createAccount as createAccountWithSink, startSink } from './lib/smtp-sink.mjs';

const TARGETS = { overhead: 1.15, watchP50Ms: 100, quietRequestsPerMinute: 4, uploadRssGrowthMB: 30 };
const GETS = 2000;
const WARM_UP = 300;
const MB = 1_000_000;
const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

const verdict = (ok) => (ok ? 'ok' : 'MISSED');

/** Child mode: upload `file` and print the RSS growth (peak during the upload minus the settled start). */
const uploadChild = async ([url, token, file]) => {
    const client = new Flowctl({ baseUrl: url, accessToken: token });
    await client.uploads.create(Buffer.from('a,b\n1,2\n'), { filename: 'warm.csv' });
    globalThis.gc?.();
    const start = process.memoryUsage.rss();
    let peak = start;
    const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage.rss());
    }, 5);
    const began = performance.now();
    const upload = await client.uploads.create(file);
    const seconds = (performance.now() - began) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    await client.close();
    console.log(JSON.stringify({ growth: peak - start, rows: upload.rows, seconds }));
};

const runChild = (args) =>
    new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), 'upload-child', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (chunk) => {
            out += chunk;
        });
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`upload child exited ${code}`))));
    });

const timeGets = async (label, get) => {
    for (let i = 0; i < WARM_UP; i++) {
        await get();
    }

    const began = performance.now();
    for (let i = 0; i < GETS; i++) {
        await get();
    }

    const ms = performance.now() - began;
    return { label, ms, perRequestUs: (ms * 1000) / GETS };
};

const overhead = async (server, account) => {
    const agent = new Agent({ keepAliveTimeout: 10_000 });
    const origin = new URL(server.url).origin;
    const raw = async () => {
        const res = await agent.request({ origin, path: '/api/auth/me', method: 'GET', headers: { authorization: `Bearer ${account.token}`, accept: 'application/json' } });
        if (res.statusCode !== 200) {
            throw new Error(`raw GET answered ${res.statusCode}`);
        }
        return res.body.json();
    };
    const client = new Flowctl({ baseUrl: server.url, accessToken: account.token });
    const sdk = () => client.auth.me();

    // Alternate, twice each, and keep each side's best: the machine is shared and noisy.
    const rounds = [];
    for (let round = 0; round < 2; round++) {
        rounds.push(await timeGets('raw', raw), await timeGets('sdk', sdk));
    }

    await agent.close();
    await client.close();
    const best = (label) => Math.min(...rounds.filter((r) => r.label === label).map((r) => r.ms));
    const ratio = best('sdk') / best('raw');
    console.log(
        `${GETS} sequential GET /api/auth/me: raw undici ${best('raw').toFixed(0)} ms (${((best('raw') * 1000) / GETS).toFixed(0)} µs each), ` +
            `SDK ${best('sdk').toFixed(0)} ms → ${ratio.toFixed(3)}× raw (target ≤ ${TARGETS.overhead}×) ${verdict(ratio <= TARGETS.overhead)}`
    );
};

const quantile = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** A client that counts the requests it makes. */
const countingClient = (server, accessToken) => {
    const counted = { requests: 0 };
    counted.client = new Flowctl({
        baseUrl: server.url,
        accessToken,
        fetch: (url, init) => {
            counted.requests++;
            return fetch(url, init);
        }
    });
    return counted;
};

/** Twelve e-mails to a sink that takes 250 ms for each: a run of about 3 s. */
const slowGraph = (uploadId) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'adults', type: 'FILTER', data: { source: '{{people.rows}}', expr: 'age > 20' } },
        { id: 'send', type: 'OUTPUT', data: { forEach: '{{adults.items}}', to: '{{item.email}}', subject: 'Hi {{item.name}}', body: 'Hello' } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'adults' },
        { source: 'adults', target: 'send' }
    ]
});

/**
 * Delay from a node's recorded status change (server clock = this machine's) to onUpdate seeing it,
 * for changes made while runs.wait() watches: each measured run waits PENDING behind another run of
 * its workflow whose e-mails a slow SMTP sink accepts, so all its changes come after the first look.
 */
const watchLatency = async () => {
    const sink = await startSink({ delayMs: 250 });
    const server = await startServer({ env: { ...env, SMTP_URL: sink.url, SMTP_CONNECTIONS: '1' } });
    try {
        const account = await createAccountWithSink(server, sink);
        const counted = countingClient(server, account.token);
        const { client } = counted;
        const rows = Array.from({ length: 12 }, (_, i) => `P${i},p${i}@example.test,${30 + i}`);
        const upload = await client.uploads.create(Buffer.from(`name,email,age\n${rows.join('\n')}\n`), { filename: 'w.csv' });
        const { workflowId } = await client.workflows.create({ name: 'watch', graph: slowGraph(upload.uploadId) });
        const delays = [];
        const RUNS = 4;
        for (let i = 0; i < RUNS; i++) {
            const ahead = await client.runs.enqueue(workflowId);
            const seen = new Set();
            const run = await client.runs.enqueueAndWait(workflowId, {
                onUpdate: (update) => {
                    const now = Date.now();
                    for (const node of update.nodes) {
                        const at = node.completedAt ?? node.startedAt;
                        const key = `${node.nodeId}:${node.status}`;
                        if (at && !seen.has(key)) {
                            seen.add(key);
                            delays.push(now - Date.parse(at));
                        }
                    }
                }
            });
            if (run.status !== 'SUCCESS' || (await client.runs.retrieve(ahead.runId)).status !== 'SUCCESS') {
                throw new Error(`a watched run ended ${run.status}`);
            }
        }

        const p50 = quantile(delays, 0.5);
        console.log(
            `watch: ${delays.length} node changes over ${RUNS} runs, change → onUpdate p50 ${p50} ms, p90 ${quantile(delays, 0.9)} ms ` +
                `(target p50 < ${TARGETS.watchP50Ms} ms) ${verdict(p50 < TARGETS.watchP50Ms)}; ${counted.requests} requests in all`
        );
        await client.close();
    } finally {
        await server.stop();
        await sink.close();
    }
};

/**
 * Requests in one minute of watching a run that stays PENDING: a server process with --role api runs
 * nothing (on PostgreSQL: the embedded store belongs to one process that does everything).
 */
const quietWatch = async () => {
    const server = await startServer({ store: 'postgres', env, args: ['--role', 'api'] });
    if (!server) {
        return;
    }

    try {
        const account = await createAccount(server);
        const counted = countingClient(server, account.token);
        const { client } = counted;
        const { workflowId } = await client.workflows.create({ name: 'quiet', graph: { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] } });
        const { runId } = await client.runs.enqueue(workflowId);
        // Requests in the minute from 15 s to 75 s of a 90 s watch: past the first look, before the timeout.
        const marks = [];
        const WATCH_MS = 90_000;
        const windowStart = setTimeout(() => marks.push(counted.requests), 15_000);
        const windowEnd = setTimeout(() => marks.push(counted.requests), 75_000);
        const err = await client.runs.wait(runId, { timeoutMs: WATCH_MS }).catch((e) => e);
        clearTimeout(windowStart);
        clearTimeout(windowEnd);
        const watched = marks[1] - marks[0];
        console.log(
            `quiet run watched for ${WATCH_MS / 1000} s (${err?.name ?? 'finished?'}): ${watched} requests in its middle minute ` +
                `(target ≤ ${TARGETS.quietRequestsPerMinute}) ${verdict(watched <= TARGETS.quietRequestsPerMinute)}`
        );
        await client.close();
    } finally {
        await server.stop();
    }
};

// `node bench/sdk.mjs upload` measures the upload only.
const only = process.argv[2];

const main = async () => {
    const server = await startServer({ env });
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-bench-sdk-'));
    try {
        const account = await createAccount(server);
        if (only !== 'upload') {
            await overhead(server, account);
        }

        const file = Path.join(dir, 'big.csv');
        const line = 'someone@example.test,Some Person,Somewhere,42\n';
        const fd = Fs.openSync(file, 'w');
        Fs.writeSync(fd, 'email,name,city,age\n');
        const block = line.repeat(20_000);
        for (let written = 0; written + block.length <= 50 * MB; written += block.length) {
            Fs.writeSync(fd, block);
        }
        Fs.closeSync(fd);
        const result = await runChild([server.url, account.token, file]);
        const growthMB = result.growth / (1024 * 1024);
        console.log(
            `upload of ${(Fs.statSync(file).size / MB).toFixed(0)} MB (${result.rows} rows) in ${result.seconds.toFixed(1)} s: client RSS growth ${growthMB.toFixed(1)} MiB ` +
                `(target < ${TARGETS.uploadRssGrowthMB}) ${verdict(growthMB < TARGETS.uploadRssGrowthMB)}`
        );
    } finally {
        Fs.rmSync(dir, { recursive: true, force: true });
        await server.stop();
    }

    if (only !== 'upload') {
        await watchLatency();
        await quietWatch();
    }
};

if (process.argv[2] === 'upload-child') {
    await uploadChild(process.argv.slice(3));
} else {
    console.log('(figures measured on a shared machine are low; compare ratios, not absolutes)');
    await main();
}

