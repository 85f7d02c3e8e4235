// The flowctl CLI: start-up time of `--version` and `--help` (target ≤ 150 ms median), and an
// end-to-end `apply` + `run --watch` of examples/workflows/newsletter.yaml against the built server.
import { spawnSync } from 'node:child_process';
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { createAccount, startServer } from './lib/server.mjs';

const root = Path.resolve(Path.dirname(new URL(import.meta.url).pathname), '..');
const bin = Path.join(root, 'packages', 'cli', 'dist', 'bin.js');
const TARGET_MS = 150;
const SAMPLES = 20;

if (!Fs.existsSync(bin)) {
    throw new Error(`${bin} is missing: run \`npm run build\` first`);
}

const home = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-bench-cli-'));
const cli = (args, env = {}) => {
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, XDG_CONFIG_HOME: home, ...env }, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.status !== 0) {
        throw new Error(`flowctl ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    }

    return { ms, stdout: result.stdout };
};

const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
};

// Node's own start-up, for scale: on a loaded machine it is most of the figure.
const bare = Array.from({ length: SAMPLES }, () => {
    const started = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '']);
    return Number(process.hrtime.bigint() - started) / 1e6;
});
console.log(`node -e '' (baseline): median ${median(bare).toFixed(0)} ms`);

// Wall time on a shared, loaded machine is mostly waiting for a core; CPU time (user + system, from
// GNU time where it exists) is what the start-up itself costs.
const cpuNote = (args) => {
    if (!Fs.existsSync('/usr/bin/time')) {
        return '';
    }

    const cpu = Array.from({ length: 10 }, () => {
        const result = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, bin, ...args], { env: { ...process.env, XDG_CONFIG_HOME: home }, encoding: 'utf8' });
        const [user, system] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
        return (user + system) * 1000;
    });
    return `; CPU time median ${median(cpu).toFixed(0)} ms`;
};

for (const args of [['--version'], ['--help']]) {
    cli(args);
    const times = Array.from({ length: SAMPLES }, () => cli(args).ms);
    const mid = median(times);
    console.log(`flowctl ${args.join(' ')}: median ${mid.toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms over ${SAMPLES} runs (target ≤ ${TARGET_MS} ms: ${mid <= TARGET_MS ? 'met' : 'MISSED'})${cpuNote(args)}`);
}

const server = await startServer();
try {
    const { token } = await createAccount(server);
    const env = { FLOWCTL_API_URL: server.url, FLOWCTL_TOKEN: token };
    const workflow = Path.join(root, 'examples', 'workflows', 'newsletter.yaml');
    const applied = cli(['--json', 'apply', '-f', workflow], env);
    const again = cli(['--json', 'apply', '-f', workflow], env);
    const run = cli(['--json', 'run', 'Newsletter to subscribers over 30', '--watch'], env);
    const detail = JSON.parse(run.stdout);
    console.log(`apply (create + upload): ${applied.ms.toFixed(0)} ms; apply again (no change): ${again.ms.toFixed(0)} ms`);
    console.log(`run --watch to ${detail.status} (${detail.result.emailsSent} e-mails): ${run.ms.toFixed(0)} ms (includes the SDK's first poll 1–2 s after enqueue)`);
} finally {
    await server.stop();
    Fs.rmSync(home, { recursive: true, force: true });
}
