// Issue 33: a workflow file means the same thing on every machine. The shipped CI recipe applies
// examples/workflows/ from a fresh runner (empty config folder, an API token): unchanged files must
// upload nothing and report nothing changed, and `--dry-run` must say so too.
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EXAMPLES, flowctl, freshHome, type Server, signUp, startServer } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

describe('apply from a fresh machine', () => {
    it('of files applied before from another machine: --dry-run and apply report nothing changed and upload nothing', async () => {
        const laptop = freshHome();
        const env = { FLOWCTL_API_URL: server.url };
        await signUp(server, laptop);
        const dir = Path.join(EXAMPLES, 'workflows');
        const first = await flowctl(['--json', 'apply', '-f', dir], { home: laptop, env });
        expect(first.code, first.stderr).toBe(0);
        expect(first.json.workflows.map((w: { action: string }) => w.action)).toEqual(first.json.workflows.map(() => 'created'));
        const token = (await flowctl(['--json', 'tokens', 'create', '--name', 'ci'], { home: laptop, env })).json.token;
        const uploadsBefore = (await flowctl(['--json', 'uploads', 'list'], { home: laptop, env })).json;

        // A CI runner: nothing in its config folder, the token in the environment.
        const runner = { home: freshHome(), env: { ...env, FLOWCTL_TOKEN: token } };
        const dry = await flowctl(['--json', 'apply', '-f', dir, '--dry-run'], runner);
        expect(dry.code, dry.stderr).toBe(0);
        expect(dry.json.workflows.map((w: { name: string; action: string }) => [w.name, w.action])).toEqual(first.json.workflows.map((w: { name: string }) => [w.name, 'unchanged']));
        expect(dry.json.workflows.flatMap((w: { uploads: { action: string }[] }) => w.uploads.map((u) => u.action))).not.toContain('would upload');
        const dryText = await flowctl(['apply', '-f', dir, '--dry-run'], runner);
        expect(dryText.stdout).not.toMatch(/would (change|create|update)/);

        const again = await flowctl(['--json', 'apply', '-f', dir], { ...runner, home: freshHome() });
        expect(again.code, again.stderr).toBe(0);
        expect(again.json.workflows.map((w: { action: string }) => w.action)).toEqual(first.json.workflows.map(() => 'unchanged'));
        expect((await flowctl(['--json', 'uploads', 'list'], { home: laptop, env })).json).toEqual(uploadsBefore);
    });
});
