// Issue 29: the suppression list must not slow sending down. The realistic 50 MiB upload (about
// 500,000 rows), FILTER `age > 53` (about 253,000 e-mails), on an account whose suppression list holds
// 100,000 addresses: 50,000 of them among the e-mails of the run (every fifth), 50,000 others. Prints the
// e-mails/s at the SMTP sink (overall and slowest tenth; target >= 2,000 on the embedded store), the
// server's peak RSS (target: the big-run budget, 512 MB), and checks that no suppressed address was
// mailed and that the run counts them as `suppressed`. Then `flowctl suppressions import` of a file of
// SUPPRESSIONS_IMPORT_LINES (1,000,000) addresses: its time and the CLI's peak RSS (streamed in
// batches: target <= 200 MB). `node bench/suppressions.mjs [embedded|postgres]` (default embedded).
//
// Measured on the shared 2-core machine on 2026-11-26, load average about 30 (other work running), so
// both figures are far below what the machine does alone: with the 100,000-address list 1,068 e-mails/s
// (220,581 sent, 50,000 suppressed, none mailed; peak RSS 501 MB); the same run with no list, just
// after, 820 e-mails/s (peak RSS 457 MB). The list costs nothing measurable here; the 2,000/s target
// could not be checked under that load. Import of 1,000,000 addresses: 386 s, CLI peak RSS 110 MB.
// Where the memory goes (same machine, load 25-40, Node 20, stopped at 60,000 e-mails, the list run and
// the list-less one back to back): peak RSS 478 MB with the list, 503 MB without; after each full
// collection during sending the V8 heap held 170-179 MB with the list and 169-170 MB without (the rows);
// PGlite's WebAssembly memory stayed at 140 MB in both (external memory peaks of 158-159 MB in both were
// transient buffers when sending sped up). The 100,000 POSTed addresses leave +60 MB of RSS before the
// run, all of it garbage: one full collection brings the server back to its idle 211 MB. So the list
// adds no memory a run keeps; the peak is the rows (about 170 MB live), V8's headroom above them and
// PGlite, and it varies by some 30 MB from run to run and with the sending rate.
import { spawn } from 'node:child_process';
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { createWorkflow, enqueue, getRun, sleep, uploadCsv } from './lib/api.mjs';
import { mb, peakSampler, processRss } from './lib/memory.mjs';
import { realistic, realisticGraph } from './lib/realistic.mjs';
import { startServer } from './lib/server.mjs';
import { createAccount, createApiToken, startSink } from './lib/smtp-sink.mjs';

const store = process.argv[2] || 'embedded';
const { SUPPRESSIONS_IMPORT_LINES, SUPPRESSIONS_LIST_SIZE } = process.env;
const IMPORT_LINES = Number(SUPPRESSIONS_IMPORT_LINES ?? 1_000_000);
// SUPPRESSIONS_LIST_SIZE=0 measures the same run without a list: the baseline on this machine now.
const LIST_SIZE = Number(SUPPRESSIONS_LIST_SIZE ?? 100_000);
const TARGETS = { emailsPerSecond: 2000, peakRssMb: 512, cliRssMb: 200 };
const CLI = Path.resolve(import.meta.dirname, '..', 'packages', 'cli', 'dist', 'bin.js');
const EXPR = 'age > 53';

let allMet = true;
const report = (what, value, target = '', ok = true) => {
    allMet &&= ok;
    console.log(`${store.padEnd(8)} ${what.padEnd(48)} ${String(value).padStart(18)}   ${target ? `target ${target.padEnd(10)} ${ok ? 'ok' : 'MISSED'}` : ''}`);
};

const addSuppressions = async (server, auth, emails) => {
    for (let i = 0; i < emails.length; i += 5000) {
        const post = () =>
            fetch(`${server.url}/api/suppressions`, {
                method: 'POST',
                headers: { ...auth, 'content-type': 'application/json' },
                body: JSON.stringify({ emails: emails.slice(i, i + 5000) })
            });
        // A keep-alive connection the server closed while the bench built its CSV fails at once: adding
        // addresses twice changes nothing, so it is simply sent again.
        const res = await post().catch(post);
        if (res.status !== 200) {
            throw new Error(`POST /api/suppressions answered ${res.status}: ${await res.text()}`);
        }
    }
};

const sink = await startSink({ track: true });
const server = await startServer({ store, env: { SMTP_URL: sink.url, RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' } });
if (!server) {
    await sink.close();
    process.exit(0);
}

try {
    const { token } = await createAccount(server, sink);
    const auth = { authorization: `Bearer ${token}` };
    const csv = realistic();
    const lines = csv.toString('utf8').split('\n').slice(1);
    const kept = lines.flatMap((line) => {
        const [, email, age] = line.split(',');
        return Number(age) > 53 ? [email] : [];
    });
    // Every fifth kept address (50,000 of them, or all there are), in another case, and 50,000 others.
    const inRun = kept.filter((_, i) => i % 5 === 0).slice(0, LIST_SIZE / 2);
    const others = Array.from({ length: LIST_SIZE - inRun.length }, (_, i) => `not.mailed.${i}@elsewhere.test`);
    let started = performance.now();
    await addSuppressions(server, auth, [...inRun.map((e) => e.toUpperCase()), ...others]);
    report(`${LIST_SIZE.toLocaleString('en')} suppressions added (POST, 5,000 each)`, `${((performance.now() - started) / 1000).toFixed(1)} s`);

    const uploadId = await uploadCsv(server, auth, csv, 'realistic.csv');
    const workflowId = await createWorkflow(server, auth, 'suppressed newsletter', realisticGraph(uploadId, EXPR));
    sink.reset();
    const peak = peakSampler(() => processRss(server.pid)?.rss);
    started = performance.now();
    const runId = await enqueue(server, auth, workflowId);
    let run = null;
    while (!run?.completedAt) {
        await sleep(500);
        run = await getRun(server, auth, runId);
    }

    const seconds = (performance.now() - started) / 1000;
    const peakRss = await peak.stop();
    console.log(`${store.padEnd(8)} run ${run.status}, result ${JSON.stringify(run.result)}`);
    report('run time, enqueue to end', `${seconds.toFixed(1)} s`);
    const arrivals = sink.arrivals;
    const n = arrivals.length;
    const overall = (n - 1) / ((arrivals[n - 1] - arrivals[0]) / 1000);
    const tenths = Array.from({ length: 10 }, (_, k) => {
        const from = Math.floor((k * (n - 1)) / 10);
        const to = Math.floor(((k + 1) * (n - 1)) / 10);
        return (to - from) / ((arrivals[to] - arrivals[from]) / 1000);
    });
    console.log(`${store.padEnd(8)} e-mails/s per tenth of the e-mails: ${tenths.map((r) => r.toFixed(0)).join(' ')}`);
    report('e-mails/s overall', overall.toFixed(0), `>= ${TARGETS.emailsPerSecond}`, overall >= TARGETS.emailsPerSecond);
    report('e-mails/s, slowest tenth', Math.min(...tenths).toFixed(0));
    const mailedSuppressed = inRun.filter((email) => sink.perRecipient.has(email)).length;
    report('e-mails at the sink / expected', `${n} / ${kept.length - inRun.length}`, '= expected', n === kept.length - inRun.length);
    report('suppressed addresses mailed', mailedSuppressed, '0', mailedSuppressed === 0);
    report('run result suppressed', run.result?.suppressed ?? 0, `= ${inRun.length}`, (run.result?.suppressed ?? 0) === inRun.length);
    report('server peak RSS during the run', mb(peakRss), `<= ${TARGETS.peakRssMb} MB`, peakRss <= TARGETS.peakRssMb * 1024 * 1024);

    if (IMPORT_LINES > 0) {
        // The CLI import: a file of IMPORT_LINES addresses, streamed and sent 5,000 at a time.
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-bench-import-'));
        const file = Path.join(dir, 'import.csv');
        const out = Fs.createWriteStream(file);
        out.write('email\n');
        for (let i = 0; i < IMPORT_LINES; i++) {
            if (!out.write(`imported.${i}@import.bench.test\n`)) {
                await new Promise((resolve) => out.once('drain', resolve));
            }
        }
        await new Promise((resolve) => out.end(resolve));
        const apiToken = await createApiToken(server, token);
        started = performance.now();
        const child = spawn(process.execPath, [CLI, '--json', 'suppressions', 'import', file], {
            env: { ...process.env, FLOWCTL_API_URL: server.url, FLOWCTL_TOKEN: apiToken, XDG_CONFIG_HOME: dir },
            stdio: ['ignore', 'pipe', 'pipe']
        });
        let stdout = '';
        child.stdout.on('data', (chunk) => {
            stdout += chunk;
        });
        child.stderr.resume();
        const cliPeak = peakSampler(() => processRss(child.pid)?.rss, 100);
        const code = await new Promise((resolve) => child.once('exit', resolve));
        const cliRss = await cliPeak.stop();
        const importSeconds = (performance.now() - started) / 1000;
        const answer = (() => {
            try {
                return JSON.parse(stdout);
            } catch {
                return {};
            }
        })();
        report(`import of ${IMPORT_LINES.toLocaleString('en')} addresses`, `${importSeconds.toFixed(1)} s`, 'exit 0', code === 0 && answer.added === IMPORT_LINES);
        report('import: addresses/s', (IMPORT_LINES / importSeconds).toFixed(0));
        report('import: CLI peak RSS', mb(cliRss), `<= ${TARGETS.cliRssMb} MB`, cliRss <= TARGETS.cliRssMb * 1024 * 1024);
        Fs.rmSync(dir, { recursive: true, force: true });
    }
} finally {
    await server.stop();
    await sink.close();
}

console.log(allMet ? 'all targets met' : 'some targets MISSED');
process.exit(allMet ? 0 : 1);
