// Per-row AI nodes against a local OpenAI-protocol model that answers each call in 200 ms:
// - 1,000 rows at the default AI_CONCURRENCY of 8: calls per second (the model allows 40/s at most);
// - 300 requests per minute announced in x-ratelimit-* headers (and enforced with 429s): calls per
//   second against the 5/s the limit allows, and whether the run still succeeds;
// - a worker SIGKILLed at about row 500 of 1,000, started again: model calls made twice;
// - worker peak RSS added by a 10,000-row per-row node (the model answering in 20 ms there).
// Embedded store, one server process (API and worker), as `npm start` runs it.
import Http from 'node:http';

import { createAccount, jsonRequest, startServer } from './lib/server.mjs';

const LATENCY_MS = 200;
const ROWS = 1_000;
const PACED_ROWS = 150;
const RPM = 300;
const BIG_ROWS = 10_000;
const TARGETS = { callsPerSecond: 35, pacedPerSecond: 5, pacedWithin: 0.1, extraCalls: 8, rssMb: 50 };
const MB = 2 ** 20;

let met = true;
const report = (label, value, target, ok) => {
    met &&= ok;
    console.log(`${label.padEnd(62)} ${String(value).padStart(12)}   target ${target}${ok ? '' : '   MISSED'}`);
};

/**
 * The model: every call answered after LATENCY_MS with `{line}` for the row named in the prompt. With
 * `rpm`, a token bucket of that many requests a minute, empty at the start (the minute was used
 * already): a call with no token gets a 429 with retry-after-ms, every reply announces the bucket.
 */
const startModel = () => {
    const state = { rpm: null, latencyMs: LATENCY_MS, tokens: 0, at: performance.now(), asked: new Map(), calls: 0, refused: 0 };
    const refill = () => {
        const now = performance.now();
        state.tokens = Math.min(state.rpm, state.tokens + ((now - state.at) * state.rpm) / 60_000);
        state.at = now;
    };
    const server = Http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (chunk) => chunks.push(chunk));
        req.on('end', () => {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            const who = /Write for (\S+)/.exec(body.messages.at(-1).content)?.[1] ?? '?';
            const headers = { 'content-type': 'application/json' };
            if (state.rpm !== null) {
                refill();
                if (state.tokens < 1) {
                    state.refused++;
                    const wait = Math.ceil(((1 - state.tokens) * 60_000) / state.rpm);
                    res.writeHead(429, { ...headers, 'retry-after-ms': String(wait) });
                    res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests' } }));
                    return;
                }

                state.tokens -= 1;
                Object.assign(headers, {
                    'x-ratelimit-limit-requests': String(state.rpm),
                    'x-ratelimit-remaining-requests': String(Math.floor(state.tokens)),
                    'x-ratelimit-reset-requests': `${(((state.rpm - state.tokens) * 60) / state.rpm).toFixed(3)}s`
                });
            }

            state.calls++;
            state.asked.set(who, (state.asked.get(who) ?? 0) + 1);
            setTimeout(() => {
                if (res.destroyed) {
                    return;
                }

                res.writeHead(200, headers);
                res.end(
                    JSON.stringify({
                        id: 'bench',
                        object: 'chat.completion',
                        created: 0,
                        model: body.model,
                        choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ line: `line for ${who}` }), refusal: null }, finish_reason: 'stop' }],
                        usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 }
                    })
                );
            }, state.latencyMs);
        });
    });
    return new Promise((resolve) =>
        server.listen(0, '127.0.0.1', () =>
            resolve({
                url: `http://127.0.0.1:${server.address().port}/v1`,
                state,
                reset(rpm = null, latencyMs = LATENCY_MS) {
                    Object.assign(state, { rpm, latencyMs, tokens: 0, at: performance.now(), asked: new Map(), calls: 0, refused: 0 });
                },
                close: () => new Promise((done) => server.close(done))
            })
        )
    );
};

const model = await startModel();
// Sign-up codes go to the outbox: no SMTP server needed.
const server = await startServer({ env: { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: model.url, AI_MODEL: 'bench-model', RUN_LEASE_MS: '2000' } });
try {
    const { token } = await createAccount(server);
    const auth = { authorization: `Bearer ${token}` };
    const api = async (method, path, body) => {
        const res = await jsonRequest(server, method, path, body, token);
        if (res.status >= 300) {
            throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
        }

        return res.json;
    };
    const workflow = async (rows) => {
        const csv = ['name,email', ...Array.from({ length: rows }, (_, i) => `P${i},p${i}@ai.bench.test`)].join('\n');
        const form = new FormData();
        form.append('file', new Blob([`${csv}\n`], { type: 'text/csv' }), 'people.csv');
        const res = await fetch(`${server.url}/api/uploads`, { method: 'POST', body: form, headers: auth });
        const upload = await res.json();
        const created = await api('POST', '/api/workflows', {
            name: `ai ${rows} ${Math.random().toString(36).slice(2, 8)}`,
            graph: {
                nodes: [
                    { id: 'start', type: 'TRIGGER', data: {} },
                    { id: 'people', type: 'DATA_SOURCE', data: { uploadId: upload.uploadId } },
                    { id: 'writer', type: 'AI', data: { forEach: '{{people.rows}}', prompt: 'Write for {{item.name}}', output: [{ name: 'line', type: 'string' }] } }
                ],
                edges: [
                    { source: 'start', target: 'people' },
                    { source: 'people', target: 'writer' }
                ]
            }
        });
        return created.workflowId;
    };
    const finished = async (runId, onPoll = () => {}) => {
        for (;;) {
            const run = await api('GET', `/api/workflows/runs/${runId}`);
            onPoll();
            if (['SUCCESS', 'FAILED', 'CANCELLED'].includes(run.status)) {
                return run;
            }

            await new Promise((resolve) => setTimeout(resolve, 100));
        }
    };
    const nodeSeconds = (run) => {
        const node = run.nodes.find((n) => n.nodeId === 'writer');
        return (Date.parse(node.completedAt) - Date.parse(node.startedAt)) / 1000;
    };

    // Throughput at the default concurrency.
    model.reset();
    const fast = await finished((await api('POST', `/api/workflows/${await workflow(ROWS)}/run`)).runId);
    if (fast.status !== 'SUCCESS') throw new Error(`the ${ROWS}-row run ended ${fast.status}: ${fast.error}`);
    const perSecond = ROWS / nodeSeconds(fast);
    report(`${ROWS.toLocaleString('en')}-row per-row AI node, ${LATENCY_MS} ms model, concurrency 8`, `${perSecond.toFixed(1)} calls/s`, `>= ${TARGETS.callsPerSecond}`, perSecond >= TARGETS.callsPerSecond);

    // Within an announced limit.
    model.reset(RPM);
    const paced = await finished((await api('POST', `/api/workflows/${await workflow(PACED_ROWS)}/run`)).runId);
    const pacedPerSecond = PACED_ROWS / nodeSeconds(paced);
    const within = Math.abs(pacedPerSecond - TARGETS.pacedPerSecond) / TARGETS.pacedPerSecond;
    report(`${PACED_ROWS} rows, ${RPM} requests/min announced (5/s): ${paced.status}`, `${pacedPerSecond.toFixed(2)} calls/s`, `within 10 % of 5/s`, paced.status === 'SUCCESS' && within <= TARGETS.pacedWithin);
    report('  429s answered by the model meanwhile', model.state.refused, '(none)', true);

    // A worker killed at about row 500.
    model.reset();
    const crashId = (await api('POST', `/api/workflows/${await workflow(ROWS)}/run`)).runId;
    while (model.state.asked.size < ROWS / 2) {
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await server.restart('SIGKILL');
    const resumed = await finished(crashId);
    const twice = [...model.state.asked.values()].filter((n) => n > 1).length;
    report(`SIGKILL at row ~${ROWS / 2} of ${ROWS}: calls made twice after takeover (${resumed.status})`, twice, `<= ${TARGETS.extraCalls}`, resumed.status === 'SUCCESS' && twice <= TARGETS.extraCalls);

    // Memory: a 10,000-row node (against a 20 ms model, to keep the bench short).
    model.reset(null, 20);
    const bigWorkflow = await workflow(BIG_ROWS);
    global.gc?.();
    const idle = server.rssBytes();
    let peak = idle;
    const big = await finished((await api('POST', `/api/workflows/${bigWorkflow}/run`)).runId, () => {
        peak = Math.max(peak, server.rssBytes());
    });
    const added = (peak - idle) / MB;
    report(`${BIG_ROWS.toLocaleString('en')}-row per-row AI node: worker peak RSS added (${big.status})`, `${added.toFixed(0)} MB`, `<= ${TARGETS.rssMb}`, big.status === 'SUCCESS' && added <= TARGETS.rssMb);
    report('  that run, calls/s', `${(BIG_ROWS / nodeSeconds(big)).toFixed(1)}`, '(none)', true);
} finally {
    await server.stop();
    await model.close();
}

console.log(met ? 'all targets met' : 'some targets missed');
process.exit(met ? 0 : 1);
