// The built flowctl binary against a real server: every exit code, and runs deliveries.
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EXAMPLES, failingWorkflow, flowctl, freshHome, type Server, signUp, startServer, workflowDir } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

describe('exit codes', () => {
    it('0 on success, 2 for usage errors, 3 when not signed in, 1 when a request fails, 4 when --watch times out', async () => {
        const home = freshHome();
        const env = { FLOWCTL_API_URL: server.url };
        expect((await flowctl(['--version'], { home })).code).toBe(0);
        expect((await flowctl(['--help'], { home })).code).toBe(0);

        const unknown = await flowctl(['workflows', 'list', '--bogus'], { home });
        expect(unknown.code).toBe(2);
        expect(unknown.stderr).toContain("unknown option '--bogus'");
        expect((await flowctl(['run', 'x', '--timeout', '10 minutes', '--watch'], { home, env })).code).toBe(2);

        const anonymous = await flowctl(['workflows', 'list'], { home, env });
        expect(anonymous.code).toBe(3);
        expect(anonymous.stderr).toContain('flowctl login');
        const badLogin = await flowctl(['login', '--email', 'nobody@example.test', '--password-stdin'], { home, env, input: 'wrong password\n' });
        expect(badLogin.code).toBe(3);

        await signUp(server, home);
        const missing = await flowctl(['run', 'no such workflow'], { home });
        expect(missing.code).toBe(1);
        expect(missing.stderr).toContain("no workflow is named exactly 'no such workflow'");
        expect(missing.stderr).toContain('flowctl workflows list');
        const missingRun = await flowctl(['runs', 'get', 'run_doesnotexist'], { home });
        expect(missingRun.code).toBe(1);

        // This server has no Google OAuth client: connect says which variables the operator must set.
        expect((await flowctl(['--json', 'google', 'status'], { home })).json).toEqual({ connected: false });
        const noGoogle = await flowctl(['google', 'connect', '--no-browser'], { home });
        expect(noGoogle.code).toBe(1);
        expect(noGoogle.stderr).toContain('GOOGLE_CLIENT_ID');

        // (The saved sign-in is never sent to another server: logging in there is what reaches it.)
        const down = await flowctl(['login', '--email', 'nobody@example.test', '--password-stdin', '--api-url', 'http://127.0.0.1:9'], { home, input: 'correct horse battery\n' });
        expect(down.code).toBe(1);
        expect(down.stderr).toContain('cannot reach the flowctl server');

        expect((await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'newsletter.yaml')], { home })).code).toBe(0);
        const timedOut = await flowctl(['run', 'Newsletter to subscribers over 30', '--watch', '--timeout', '100ms'], { home });
        expect(timedOut.code).toBe(4);
        expect(timedOut.stderr).toMatch(/flowctl runs watch run_/);
    });

    it('1 when the watched run ends FAILED, with ::error:: lines under GitHub Actions', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'bad.yaml': failingWorkflow });
        expect((await flowctl(['apply', '-f', dir], { home })).code).toBe(0);

        const watched = await flowctl(['run', 'Bad addresses', '--watch'], { home, env: { GITHUB_ACTIONS: 'true' } });
        expect(watched.code).toBe(1);
        expect(watched.stdout).toMatch(/node send \(OUTPUT\): FAILED/);
        expect(watched.stdout).toMatch(/^::error title=flowctl run run_\w+ of Bad addresses ended FAILED::node send \(OUTPUT\) failed: /m);
        expect(watched.stderr).toMatch(/flowctl runs get run_/);

        const json = await flowctl(['run', 'Bad addresses', '--watch', '--json'], { home });
        expect(json.code).toBe(1);
        expect(json.json).toMatchObject({ status: 'FAILED' });

        // Rows with an invalid address are not retried: nothing is left, and the CLI says where to look.
        const retried = await flowctl(['runs', 'retry', json.json.runId], { home });
        expect(retried.code).toBe(1);
        expect(retried.stderr).toContain(`run ${json.json.runId} cannot be retried`);
        expect(retried.stderr).toContain(`flowctl runs get ${json.json.runId}`);
        expect((await flowctl(['runs', 'retry', 'run_doesnotexist'], { home })).stderr).toContain("run 'run_doesnotexist' not found");
    });
});

describe('runs deliveries', () => {
    it('lists who got what: tab-separated lines without a terminal, --json, --status; usage and unknown runs exit 2 and 1', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'bad.yaml': failingWorkflow });
        expect((await flowctl(['apply', '-f', dir], { home })).code).toBe(0);
        expect((await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'newsletter.yaml')], { home })).code).toBe(0);

        const good = (await flowctl(['run', 'Newsletter to subscribers over 30', '--watch', '--json'], { home })).json;
        const listed = await flowctl(['runs', 'deliveries', good.runId], { home });
        expect(listed.code, listed.stderr).toBe(0);
        expect(listed.stdout.trim().split('\n').map((line) => line.split('\t').slice(0, 5))).toEqual([
            ['send', '0', 'ada@example.com', 'sent', '1'],
            ['send', '1', 'alan@example.com', 'sent', '1'],
            ['send', '2', 'margaret@example.com', 'sent', '1']
        ]);
        const json = await flowctl(['runs', 'deliveries', good.runId, '--json', '--limit', '2'], { home });
        expect(json.json.map((d: { to: string }) => d.to)).toEqual(['ada@example.com', 'alan@example.com']);
        expect((await flowctl(['runs', 'deliveries', good.runId, '--status', 'failed'], { home })).stdout).toBe(`no failed e-mails in run ${good.runId}\n`);

        const bad = (await flowctl(['run', 'Bad addresses', '--watch', '--json'], { home })).json;
        const failed = await flowctl(['runs', 'deliveries', bad.runId, '--status', 'failed', '--json'], { home });
        expect(failed.json).toHaveLength(5);
        expect(failed.json[0]).toMatchObject({ nodeId: 'send', index: 0, to: 'Ada Lovelace', status: 'failed', attempts: 0 });
        expect(failed.json[0].error).toMatch(/^invalid recipient address 'Ada Lovelace'/);

        const usage = await flowctl(['runs', 'deliveries', bad.runId, '--status', 'bounced'], { home });
        expect(usage.code).toBe(2);
        expect(usage.stderr).toContain("--status 'bounced' is not one of sent, failed, unknown, pending, suppressed");
        const missing = await flowctl(['runs', 'deliveries', 'run_doesnotexist'], { home });
        expect(missing.code).toBe(1);
        expect(missing.stderr).toContain("run 'run_doesnotexist' not found");
    });
});
