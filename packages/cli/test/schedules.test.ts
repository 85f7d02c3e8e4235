// Schedules from the CLI: a bad schedule at its YAML line, list's NEXT RUN, pause and resume, and
// the TRIGGER column of runs list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { flowctl, freshHome, type Server, signUp, startServer, workflowDir } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

const daily = (cron: string, timezone = 'Europe/Berlin') => `name: Daily digest
graph:
  nodes:
    - id: start
      type: TRIGGER
      data:
        schedule: { cron: "${cron}", timezone: ${timezone} }
  edges: []
`;

describe('schedules', () => {
    it('a bad cron or zone is refused before any request, at its line and column', async () => {
        const home = freshHome();
        const dir = workflowDir({ 'cron.yaml': daily('61 * * * *'), 'zone.yaml': daily('0 9 * * *', 'Mars/Olympus') });
        const result = await flowctl(['apply', '-f', dir, '--api-url', 'http://127.0.0.1:9'], { home, cwd: dir });
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/cron\.yaml:7:\d+: 'cron' is not a valid expression/);
        expect(result.stderr).toMatch(/zone\.yaml:7:\d+: 'timezone' must be an IANA time zone name/);
    });

    it('list shows the next run; pause and resume; runs list shows what started each run', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'daily.yaml': daily('0 9 * * *') });
        expect((await flowctl(['apply', '-f', dir], { home, cwd: dir })).code).toBe(0);

        const listed = await flowctl(['workflows', 'list'], { home });
        expect(listed.stdout).toMatch(/NEXT RUN/);
        expect(listed.stdout).toMatch(/Daily digest .*\d{4}-\d\d-\d\dT0[78]:00:00\.000Z/);

        const paused = await flowctl(['--json', 'workflows', 'pause', 'Daily digest'], { home });
        expect(paused.code).toBe(0);
        expect(paused.json.schedule).toMatchObject({ paused: true, nextRunAt: null });
        expect((await flowctl(['workflows', 'list'], { home })).stdout).toMatch(/Daily digest .*paused/);

        const resumed = await flowctl(['workflows', 'resume', 'Daily digest'], { home });
        expect(resumed.code).toBe(0);
        expect(resumed.stdout).toMatch(/resumed Daily digest .*next run \d{4}-/);

        expect((await flowctl(['run', 'Daily digest', '--watch'], { home })).code).toBe(0);
        const runs = await flowctl(['runs', 'list', 'Daily digest'], { home });
        expect(runs.stdout).toMatch(/TRIGGER/);
        expect(runs.stdout).toMatch(/SUCCESS +1 +manual/);
    });

    it('pausing a workflow without a schedule or hook fails with exit 1 saying why', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'plain.yaml': 'name: Plain\ngraph:\n  nodes:\n    - { id: start, type: TRIGGER, data: {} }\n  edges: []\n' });
        expect((await flowctl(['apply', '-f', dir], { home, cwd: dir })).code).toBe(0);
        const result = await flowctl(['workflows', 'pause', 'Plain'], { home });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('no schedule or hook');
    });
});

describe('hooks', () => {
    it('apply prints a new hook URL once; rotate-hook prints the next one', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'hook.yaml': 'name: Hooked\ngraph:\n  nodes:\n    - { id: trigger, type: TRIGGER, data: { webhook: true } }\n  edges: []\n' });
        const applied = await flowctl(['apply', '-f', dir], { home, cwd: dir });
        expect(applied.code).toBe(0);
        const first = /hook URL \(shown only now; keep it secret\): (\S+)/.exec(applied.stdout)?.[1];
        expect(first).toMatch(/\/api\/hooks\/[A-Za-z0-9_-]{43}$/);
        expect((await flowctl(['workflows', 'get', 'Hooked'], { home })).stdout).not.toContain(first);
        const rotated = await flowctl(['--json', 'workflows', 'rotate-hook', 'Hooked'], { home });
        expect(rotated.code).toBe(0);
        expect(rotated.json.hookUrl).toMatch(/\/api\/hooks\/[A-Za-z0-9_-]{43}$/);
        expect(rotated.json.hookUrl).not.toBe(first);
    });
});
