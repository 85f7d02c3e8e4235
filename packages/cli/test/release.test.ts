// Releasing is real: `npm run release` (changeset publish) against a registry started here (verdaccio,
// storage in a temp folder; other packages come through it from the registry npm is set up with),
// then flowctl and @flowctl/sdk installed from it into an empty folder, as a user would, and run.
// Children run asynchronously: the registry answering them lives in this process.
import { execFile, execFileSync } from 'node:child_process';
import Fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Os from 'node:os';
import Path from 'node:path';

import { runServer } from 'verdaccio';
import { afterAll, beforeAll, expect, it } from 'vitest';

const repo = Path.resolve(import.meta.dirname, '../../..');
const versionOf = (dir: string) => (JSON.parse(Fs.readFileSync(Path.join(repo, dir, 'package.json'), 'utf8')) as { version: string }).version;

let dir: string;
let registry: Server;
let url: string;
let env: NodeJS.ProcessEnv;
let publish: { status: number | null; output: string };

const exec = (file: string, args: string[], cwd: string) =>
    new Promise<{ status: number | null; stdout: string; stderr: string; output: string }>((resolve) => {
        execFile(file, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
            resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr, output: `${stdout}\n${stderr}` });
        });
    });
const npm = (cwd: string, args: string[]) => exec('npm', args, cwd);

beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-release-'));
    const upstream = execFileSync('npm', ['config', 'get', 'registry'], { cwd: Os.tmpdir(), encoding: 'utf8' }).trim();
    // Our three names are served only from local storage, never from the uplink: `flowctl` on the
    // public registry could be anyone's.
    const config = `
storage: ${JSON.stringify(Path.join(dir, 'storage'))}
auth:
  htpasswd:
    file: ${JSON.stringify(Path.join(dir, 'htpasswd'))}
    max_users: 1
uplinks:
  upstream:
    url: ${JSON.stringify(upstream)}
packages:
  'flowctl':
    access: $all
    publish: $authenticated
  '@flowctl/*':
    access: $all
    publish: $authenticated
  '**':
    access: $all
    proxy: upstream
logs: { type: stdout, format: pretty, level: fatal }
`;
    Fs.writeFileSync(Path.join(dir, 'config.yaml'), config);
    registry = (await runServer(Path.join(dir, 'config.yaml'))) as Server;
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;

    const user = await fetch(`${url}-/user/org.couchdb.user:release`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'release', password: 'release-test-password' })
    });
    const { token } = (await user.json()) as { token: string };
    Fs.writeFileSync(Path.join(dir, 'npmrc'), `registry=${url}\n//127.0.0.1:${new URL(url).port}/:_authToken=${token}\n`);

    // Only this registry and this user config; no lifecycle scripts: the suite's build has just run
    // (prepack building an unbuilt clone is proven by .ci/newcomer.sh).
    env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(config_|package_|lifecycle_)/.test(name)));
    Object.assign(env, { npm_config_userconfig: Path.join(dir, 'npmrc'), npm_config_registry: url, npm_config_ignore_scripts: 'true', CI: 'true' });

    // The root's `release` script, without git tags (this is not a release of the repository).
    publish = await exec(process.execPath, [Path.join(repo, 'node_modules/@changesets/cli/bin.js'), 'publish', '--no-git-tag'], repo);
});

afterAll(async () => {
    await new Promise((resolve) => registry?.close(resolve));
    if (dir) {
        Fs.rmSync(dir, { recursive: true, force: true });
    }
});

it('changeset publish publishes the engine, the SDK and the CLI, and nothing private', async () => {
    expect(publish.status, publish.output).toBe(0);
    for (const [name, folder] of [
        ['@flowctl/engine', 'packages/engine'],
        ['@flowctl/sdk', 'packages/sdk'],
        ['flowctl', 'packages/cli']
    ] as const) {
        const view = await npm(dir, ['view', name, 'version']);
        expect(view.stdout.trim(), view.output).toBe(versionOf(folder));
    }
    expect((await npm(dir, ['view', '@flowctl/server', 'version'])).status).not.toBe(0);
});

it('npm i flowctl @flowctl/sdk from that registry into an empty folder: the command and the SDK run', async () => {
    expect(publish.status, publish.output).toBe(0);
    const app = Path.join(dir, 'app');
    Fs.mkdirSync(app);
    Fs.writeFileSync(Path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    const install = await npm(app, ['install', '--no-audit', '--no-fund', 'flowctl', '@flowctl/sdk']);
    expect(install.status, install.output).toBe(0);

    const lock = JSON.parse(Fs.readFileSync(Path.join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
    expect(lock.packages['node_modules/flowctl']!.resolved).toMatch(new RegExp(`^${url}`));
    expect(lock.packages['node_modules/@flowctl/sdk']!.resolved).toMatch(new RegExp(`^${url}`));
    expect(Object.keys(lock.packages).filter((path) => path.includes('@flowctl/engine'))).toEqual([]);

    const version = await exec(Path.join(app, 'node_modules/.bin/flowctl'), ['--version'], app);
    expect(version.stdout.trim(), version.stderr).toBe(versionOf('packages/cli'));

    const esm = `import Flowctl, { NotFoundError } from '@flowctl/sdk';
const client = new Flowctl({ baseUrl: 'http://127.0.0.1:1', apiToken: 'flc_x' });
console.log(typeof client.runs.wait, typeof NotFoundError);
await client.close();`;
    const imported = await exec(process.execPath, ['--input-type=module', '-e', esm], app);
    expect(imported.stderr).toBe('');
    expect(imported.stdout.trim()).toBe('function function');

    const required = await exec(process.execPath, ['-e', "console.log(typeof require('@flowctl/sdk').Flowctl)"], app);
    expect(required.stdout.trim(), required.stderr).toBe('function');
});
