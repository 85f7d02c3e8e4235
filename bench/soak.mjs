// Soak (issue 20 §5): the embedded server runs a workflow mailing 200 rows to a local sink every 2 s for
// SOAK_MINUTES (60). Its RSS is sampled every minute and printed as a series, with the slope over the
// second half (does it level off?), and the data directory's growth per e-mail sent. Long: `npm run
// bench` runs it for an hour; SOAK_MINUTES=3 checks that it works.
import Fs from 'node:fs';
import Path from 'node:path';

import { createWorkflow, enqueue, getRun, mailGraph, sleep, uploadCsv } from './lib/api.mjs';
import { MB, processRss, serverMemory } from './lib/memory.mjs';
import { startServer } from './lib/server.mjs';
import { createAccount, createApiToken, startSink } from './lib/smtp-sink.mjs';

// Benchmarks are not turbo tasks, so their variables are not declared in turbo.json.
const { SOAK_MINUTES } = process.env;
const MINUTES = Number(SOAK_MINUTES || 60);
const ROWS = 200;
const EVERY_MS = 2000;
// Levelled off: over the second half of the soak, RSS grows by less than this per hour, and the last
// sample is within this share above the sample at minute 10 (issue 20's target).
const TARGET_SLOPE_MB_PER_HOUR = 32;
const TARGET_GROWTH_AFTER_10_MINUTES = 0.15;
const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

/** Bytes the folder takes on disk (allocated blocks, like du). */
const diskBytes = (folder) => {
    let total = 0;
    for (const entry of Fs.readdirSync(folder, { withFileTypes: true })) {
        const path = Path.join(folder, entry.name);
        if (entry.isDirectory()) {
            total += diskBytes(path);
        } else if (entry.isFile()) {
            total += Fs.statSync(path).blocks * 512;
        }
    }

    return total;
};

/** Least-squares slope of y over x. */
const slope = (points) => {
    const n = points.length;
    const mx = points.reduce((s, p) => s + p.x, 0) / n;
    const my = points.reduce((s, p) => s + p.y, 0) / n;
    const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
    const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
    return den === 0 ? 0 : num / den;
};

const sink = await startSink();
const server = await startServer({ env: { ...env, SMTP_URL: sink.url } });
let met = true;
try {
    // An access token lasts 15 minutes; the soak lasts an hour.
    const auth = { authorization: `Bearer ${await createApiToken(server, (await createAccount(server, sink)).token)}` };
    const lines = ['name,email', ...Array.from({ length: ROWS }, (_, i) => `P${i},p${i}@soak.bench.test`)];
    const workflowId = await createWorkflow(server, auth, 'soak', mailGraph(await uploadCsv(server, auth, `${lines.join('\n')}\n`, 'people.csv')));
    const sentBefore = sink.count;
    const diskBefore = diskBytes(server.dataDir);
    const started = performance.now();
    const samples = [{ minute: 0, rss: processRss(server.pid).rss, memory: await serverMemory(server) }];
    const runIds = [];
    let failures = 0;
    let nextSample = 1;
    for (let tick = 0; performance.now() - started < MINUTES * 60_000; tick++) {
        await sleep(Math.max(0, started + tick * EVERY_MS - performance.now()));
        try {
            runIds.push(await enqueue(server, auth, workflowId));
        } catch (err) {
            if (failures++ === 0) {
                console.log(`enqueue failed (further failures are only counted): ${err.message}`);
            }
        }

        if (performance.now() - started >= nextSample * 60_000) {
            const sample = { minute: nextSample, rss: processRss(server.pid).rss, memory: await serverMemory(server) };
            samples.push(sample);
            // An hour is long: each sample is printed as it comes, so a soak cut short still says something.
            console.log(`minute ${sample.minute}: RSS ${Math.round(sample.rss / MB)} MB, heap ${Math.round(sample.memory.heapUsed / MB)} MB`);
            nextSample++;
        }
    }

    // The last runs: until they have ended.
    let ended = 0;
    const statuses = new Map();
    for (const runId of runIds) {
        let run = await getRun(server, auth, runId);
        while (!run.completedAt) {
            await sleep(200);
            run = await getRun(server, auth, runId);
        }

        statuses.set(run.status, (statuses.get(run.status) ?? 0) + 1);
        ended++;
    }

    const sent = sink.count - sentBefore;
    const diskAfter = diskBytes(server.dataDir);
    const series = samples.map((s) => `${s.minute}:${Math.round(s.rss / MB)}`).join(' ');
    console.log(`runs enqueued ${runIds.length} (${failures} enqueue failures), ended ${ended}: ${JSON.stringify(Object.fromEntries(statuses))}`);
    console.log(`e-mails at the sink ${sent} (expected ${runIds.length * ROWS})`);
    console.log(`server RSS per minute (minute:MB): ${series}`);
    console.log(
        `V8 heap used per minute (MB): ${samples.map((s) => Math.round(s.memory.heapUsed / MB)).join(' ')}; external (MB): ${samples.map((s) => Math.round(s.memory.external / MB)).join(' ')}`
    );
    const secondHalf = samples.filter((s) => s.minute >= MINUTES / 2).map((s) => ({ x: s.minute, y: s.rss / MB }));
    const perHour = secondHalf.length >= 2 ? slope(secondHalf) * 60 : Number.NaN;
    const levels = perHour <= TARGET_SLOPE_MB_PER_HOUR;
    const atTen = samples.find((s) => s.minute === 10);
    const last = samples.at(-1);
    const growth = atTen && last.minute > 10 ? last.rss / atTen.rss - 1 : Number.NaN;
    const within = !(growth > TARGET_GROWTH_AFTER_10_MINUTES);
    met = levels && within && failures === 0 && sent === runIds.length * ROWS && statuses.get('SUCCESS') === runIds.length;
    console.log(
        `RSS slope over the second half: ${perHour.toFixed(1)} MB/hour   target ≤ ${TARGET_SLOPE_MB_PER_HOUR} MB/hour (levels off) ${levels ? 'ok' : 'MISSED'}${MINUTES < 30 ? ' (a short soak says little)' : ''}`
    );
    console.log(
        `RSS at minute ${last.minute} vs minute 10: ${Number.isNaN(growth) ? 'n/a (shorter than 11 minutes)' : `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %`}   target ≤ +${TARGET_GROWTH_AFTER_10_MINUTES * 100} % ${within ? 'ok' : 'MISSED'}`
    );
    console.log(
        `data directory: ${Math.round(diskBefore / MB)} MB → ${Math.round(diskAfter / MB)} MB, ${sent > 0 ? ((diskAfter - diskBefore) / sent).toFixed(0) : 'n/a'} bytes per e-mail`
    );
} finally {
    await server.stop();
    await sink.close();
}

console.log(met ? 'all soak targets met' : 'some soak targets missed');
process.exit(met ? 0 : 1);
