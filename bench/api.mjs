// Uploads and workflows through the built server, on the embedded store and on PostgreSQL:
// CSV upload throughput and the server's memory while a 50 MB file streams in, then workflow
// create and authenticated GET /api/workflows/{id} throughput.
import { createClient, expectStatus, pool } from './lib/load.mjs';
import { createAccount, startServer } from './lib/server.mjs';

const TARGETS = {
    uploadMBps: 20,
    uploadRssGrowthMB: 100,
    getWorkflow: { embedded: 800, postgres: 2000 }
};

const CONCURRENCY = 16;
const CREATES = 800;
const GETS = { embedded: 3000, postgres: 6000 };
// Requests before the measured ones, so that the server's JIT has settled.
const WARM_UP = 1000;

// Counted on every request but raised so that the bench measures the API rather than 429s.
const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

const MB = 1024 * 1024;

const { request, close: closeClient } = createClient(CONCURRENCY);

/** A CSV of about `rows` rows, as a Buffer: the shape of a typical mailing list. */
const makeCsv = (rows) => {
    const lines = ['id,name,email,country,age,subscribed,notes'];
    for (let i = 0; i < rows; i++) {
        lines.push(`${i},Person ${i},person${i}@example.test,${i % 3 ? 'PT' : 'DE'},${18 + (i % 60)},${i % 2 === 0},"likes, commas; line ${i}"`);
    }

    return Buffer.from(`${lines.join('\n')}\n`);
};

/** Whole lines of CSV up to `bytes`, repeating one block so that building it is quick. */
const makeCsvOfSize = (bytes) => {
    const block = makeCsv(10_000);
    const body = block.subarray(block.indexOf(10) + 1);
    const header = block.subarray(0, block.indexOf(10) + 1);
    const all = Buffer.concat([header, ...Array.from({ length: Math.ceil(bytes / body.length) }, () => body)]);
    return all.subarray(0, all.lastIndexOf(10, bytes - 1) + 1);
};

const check = async (res, status, what) => {
    if (res.status !== status) {
        throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
    }

    return res.status === 204 ? null : await res.json();
};

const upload = async (server, token, bytes, filename) => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'text/csv' }), filename);
    const started = performance.now();
    const res = await fetch(`${server.url}/api/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    const json = await check(res, 201, `upload of ${filename}`);
    return { json, ms: performance.now() - started };
};

/** Peak RSS of the server while `task` runs, sampled every 20 ms. */
const peakRss = async (server, task) => {
    let peak = server.rssBytes();
    const timer = setInterval(() => {
        peak = Math.max(peak, server.rssBytes());
    }, 20);
    try {
        const result = await task();
        peak = Math.max(peak, server.rssBytes());
        return { result, peak };
    } finally {
        clearInterval(timer);
    }
};

const verdict = (ok) => (ok ? 'ok' : 'MISSED');
const mbps = (bytes, ms) => bytes / MB / (ms / 1000);

const bench = async (store) => {
    const server = await startServer({ store, env });
    if (!server) {
        return true;
    }

    let met = true;
    const report = (what, value, target, ok) => {
        met &&= ok;
        console.log(`${store.padEnd(8)} ${what.padEnd(46)} ${value.padStart(14)}   target ${target.padEnd(10)} ${verdict(ok)}`);
    };

    try {
        const { token } = await createAccount(server);
        const auth = { authorization: `Bearer ${token}` };
        // Before any upload: the stricter baseline, since the first uploads also grow the heap for good.
        const fresh = server.rssBytes();

        // Warm-up, unmeasured: the server's first upload also pays for JIT compilation.
        await upload(server, token, makeCsv(20_000), 'warm-up.csv');

        const rowsCsv = makeCsv(100_000);
        const rows = await upload(server, token, rowsCsv, 'rows-100k.csv');
        if (rows.json.rows !== 100_000) {
            throw new Error(`expected 100000 rows, the server counted ${rows.json.rows}`);
        }

        const rowsRate = mbps(rowsCsv.length, rows.ms);
        report(`upload 100,000 rows (${(rowsCsv.length / MB).toFixed(1)} MB)`, `${rowsRate.toFixed(1)} MB/s`, `>= ${TARGETS.uploadMBps}`, rowsRate >= TARGETS.uploadMBps);

        // Just under the default MAX_UPLOAD_BYTES (50 MiB).
        const bigCsv = makeCsvOfSize(50 * MB);
        await new Promise((resolve) => setTimeout(resolve, 500));
        const idle = server.rssBytes();
        const { result: big, peak } = await peakRss(server, () => upload(server, token, bigCsv, 'big-50mb.csv'));
        const bigRate = mbps(bigCsv.length, big.ms);
        const growth = (peak - idle) / MB;
        report(`upload ${(bigCsv.length / MB).toFixed(1)} MB (${big.json.rows} rows)`, `${bigRate.toFixed(1)} MB/s`, `>= ${TARGETS.uploadMBps}`, bigRate >= TARGETS.uploadMBps);
        report(`  peak RSS growth (idle ${(idle / MB).toFixed(0)} MB)`, `${growth.toFixed(1)} MB`, `< ${TARGETS.uploadRssGrowthMB}`, growth < TARGETS.uploadRssGrowthMB);
        const sinceStart = (peak - fresh) / MB;
        report(`  peak RSS over the just-started server (${(fresh / MB).toFixed(0)} MB)`, `${sinceStart.toFixed(1)} MB`, `< ${TARGETS.uploadRssGrowthMB}`, sinceStart < TARGETS.uploadRssGrowthMB);

        const graph = {
            nodes: [
                { id: 'start', type: 'TRIGGER', data: {} },
                { id: 'people', type: 'DATA_SOURCE', data: { uploadId: rows.json.uploadId } },
                { id: 'adults', type: 'FILTER', data: { source: '{{people.rows}}', expr: "age >= 18 && country == 'PT'" } },
                { id: 'mail', type: 'OUTPUT', data: { forEach: '{{adults.items}}', to: '{{item.email}}', subject: 'Hello {{item.name}}', body: 'Hi {{item.name}},\nwelcome.' } }
            ],
            edges: [
                { source: 'start', target: 'people' },
                { source: 'people', target: 'adults' },
                { source: 'adults', target: 'mail' }
            ]
        };
        const ids = [];
        const createWorkflow = async (i) => {
            const res = await request(`${server.url}/api/workflows`, {
                method: 'POST',
                headers: { ...auth, 'content-type': 'application/json' },
                body: JSON.stringify({ name: `Workflow ${i}`, graph })
            });
            ids.push(expectStatus(res, 201, 'create workflow').workflowId);
        };
        await pool(WARM_UP / 4, CONCURRENCY, createWorkflow);
        const createMs = await pool(CREATES, CONCURRENCY, createWorkflow);
        const createRate = (CREATES * 1000) / createMs;
        report(`POST /api/workflows (${CREATES}, ${CONCURRENCY} at a time)`, `${createRate.toFixed(0)} req/s`, '(none)', true);

        const gets = GETS[store];
        const getWorkflow = async (i) => expectStatus(await request(`${server.url}/api/workflows/${ids[i % ids.length]}`, { headers: auth }), 200, 'get workflow');
        await pool(WARM_UP, CONCURRENCY, getWorkflow);
        const getMs = await pool(gets, CONCURRENCY, getWorkflow);
        const getRate = (gets * 1000) / getMs;

        // The same load on a route with no token, no rate limit and no store: what this machine's HTTP allows.
        const healthMs = await pool(gets, CONCURRENCY, async () => expectStatus(await request(`${server.url}/healthz`), 200, 'healthz'));
        const getTarget = TARGETS.getWorkflow[store];
        report(`GET /api/workflows/{id} (${gets}, ${CONCURRENCY} at a time)`, `${getRate.toFixed(0)} req/s`, `>= ${getTarget}`, getRate >= getTarget);
        report('  reference: GET /healthz (no token, no store)', `${((gets * 1000) / healthMs).toFixed(0)} req/s`, '(none)', true);
    } finally {
        await server.stop();
    }

    return met;
};

const started = performance.now();
let allMet = true;
for (const store of ['embedded', 'postgres']) {
    allMet = (await bench(store)) && allMet;
}

closeClient();
console.log(`${allMet ? 'all targets met' : 'some targets missed'} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
