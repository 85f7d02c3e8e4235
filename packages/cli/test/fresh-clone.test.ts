// A new user's first minutes, on a fresh clone of this commit: `npm ci` must link the flowctl command
// (it runs before anything is built, so the command npm links is a committed shim that loads dist/),
// `npm pack` must build what it packs, and the engines fields must fit the Node that runs npm.
// npm runs here on the system's Node (PATH without any node_modules/.bin), as it does for the user.
import { execFileSync, spawnSync } from 'node:child_process';
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

const repo = Path.resolve(import.meta.dirname, '../../..');
const { version } = JSON.parse(Fs.readFileSync(Path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as { version: string };

// The parent npm run's variables would point the child npm at this monorepo; the pinned Node 24 in
// node_modules/.bin would hide the system's.
const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_(config_local_prefix|package_|lifecycle_)|INIT_CWD$)/.test(name)));
env.PATH = (process.env.PATH ?? '')
    .split(Path.delimiter)
    .filter((dir) => !dir.includes(`node_modules${Path.sep}.bin`) && !dir.includes(`node_modules${Path.sep}node${Path.sep}bin`))
    .join(Path.delimiter);

const run = (cwd: string, command: string, args: string[]) => {
    const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, output: `${result.stdout}\n${result.stderr}` };
};

let clone: string;
let install: ReturnType<typeof run>;

beforeAll(() => {
    clone = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-clone-'));
    // What `git clone` gives: the committed files of this HEAD, nothing built, nothing ignored.
    execFileSync('git', ['init', '-q', clone]);
    execFileSync('git', ['fetch', '-q', '--depth', '1', repo, 'HEAD'], { cwd: clone });
    execFileSync('git', ['checkout', '-q', 'FETCH_HEAD'], { cwd: clone });
    // Without install scripts, to keep this test's cost down (they fetch the pinned Node 24 and check
    // esbuild; they link nothing of ours): the clone's npm scripts and flowctl then run on the system
    // Node. .ci/newcomer.sh runs the README's `npm ci && npm start` exactly.
    install = run(clone, 'npm', ['ci', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund']);
}, 600_000);

afterAll(() => {
    if (clone) {
        Fs.rmSync(clone, { recursive: true, force: true });
    }
});

it('npm ci links node_modules/.bin/flowctl before anything is built, and it says how to build', () => {
    expect(install.status, install.output).toBe(0);
    expect(Fs.existsSync(Path.join(clone, 'packages/cli/dist'))).toBe(false);
    expect(Fs.existsSync(Path.join(clone, 'node_modules/.bin/flowctl'))).toBe(true);

    // (Not `npx --no flowctl --version`: npx answers a lone --version or --help itself.)
    const unbuilt = run(clone, 'npx', ['--no', 'flowctl', 'apply', '--help']);
    expect(unbuilt.status).toBe(1);
    expect(unbuilt.stderr).toContain('flowctl is not built yet: run `npm run build`');
});

it('npm ci on the system Node warns of no unsupported engine', () => {
    expect(install.status, install.output).toBe(0);
    expect(install.output).not.toContain('EBADENGINE');
});

it('npm pack builds first; then the README form `npx --no flowctl` runs the build', () => {
    const pack = run(clone, 'npm', ['pack', '-w', 'flowctl', '--pack-destination', clone]);
    expect(pack.status, pack.output).toBe(0);
    const tarball = Path.join(clone, `flowctl-${version}.tgz`);
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(files).toEqual(expect.arrayContaining(['package/bin/flowctl.js', 'package/dist/bin.js']));

    const built = run(clone, 'npx', ['--no', 'flowctl', 'apply', '--help']);
    expect(built.status, built.output).toBe(0);
    expect(built.stdout).toContain('--dry-run');
    expect(run(clone, 'npx', ['--no', '--', 'flowctl', '--version']).stdout.trim()).toBe(version);

    // The tarball, installed globally and run on the system's Node (it claims the same engines).
    const prefix = Path.join(clone, 'prefix');
    const global = run(clone, 'npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball]);
    expect(global.status, global.output).toBe(0);
    expect(global.output).not.toContain('EBADENGINE');
    const help = run(clone, Path.join(prefix, 'bin/flowctl'), ['apply', '--help']);
    expect(help.status, help.output).toBe(0);
    expect(help.stdout).toContain('--dry-run');
}, 600_000);
