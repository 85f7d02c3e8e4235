// Issue 32 §2: runs get's revision, runs retry's (or --latest), diff's exit codes and apply's If-Match,
// through the built binary against a real server.
import Fs from 'node:fs';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { flowctl, freshHome, type Server, signUp, startServer, workflowDir } from './harness.js';
import { newsletter } from './revised-newsletter.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

describe('revisions from the command line', () => {
    it('runs retry executes the run’s revision, or with --latest the current one', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'newsletter.yaml': newsletter('age > 0') });
        const file = Path.join(dir, 'newsletter.yaml');
        expect((await flowctl(['apply', '-f', file], { home })).code).toBe(0);
        server.smtp.failNext(1, 550);
        const failed = await flowctl(['--json', 'run', 'Revised newsletter', '--watch'], { home });
        expect(failed.json).toMatchObject({ status: 'FAILED', revision: 1 });

        Fs.writeFileSync(file, newsletter('age > 0', 'Hi again {{item.name}}'));
        expect((await flowctl(['apply', '-f', file], { home })).code).toBe(0);
        server.smtp.failNext(1, 550);
        const own = await flowctl(['--json', 'runs', 'retry', failed.json.runId, '--watch'], { home });
        expect(own.json).toMatchObject({ revision: 1, retryOf: failed.json.runId });
        const latest = await flowctl(['--json', 'runs', 'retry', own.json.runId, '--latest', '--watch'], { home });
        expect(latest.json).toMatchObject({ status: 'SUCCESS', revision: 2, retryOf: own.json.runId });
    });

    it('diff exits above 1 when it cannot compare', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'broken.yaml': 'name: x\ngraph: [' });
        const broken = await flowctl(['diff', '-f', Path.join(dir, 'broken.yaml')], { home });
        expect(broken.code).toBe(2);
        const dir2 = workflowDir({ 'ok.yaml': newsletter('age > 1') });
        const offline = await flowctl(['diff', '-f', Path.join(dir2, 'ok.yaml'), '--api-url', 'http://127.0.0.1:9'], { home });
        // No sign-in saved for that address: 3, as any command.
        expect(offline.code).toBe(3);
        // A server that cannot be reached: 1 for other commands, 2 here (1 means "there is a difference").
        const down = await flowctl(['diff', '-f', Path.join(dir2, 'ok.yaml'), '--api-url', 'http://127.0.0.1:9'], { home, env: { FLOWCTL_TOKEN: 'flc_0123456789abcdef' } });
        expect(down.code).toBe(2);
        expect(down.stderr).toMatch(/^error: cannot reach the flowctl server/);
    });

    it('apply writes only over the revision it compared with, and says what changed meanwhile', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'newsletter.yaml': newsletter('age > 30') });
        const file = Path.join(dir, 'newsletter.yaml');
        const created = await flowctl(['--json', 'apply', '-f', file], { home });
        const workflowId = created.json.workflows[0].workflowId;

        // Someone else changes the workflow while this apply is between its read and its write: the
        // server's answer to the write is what apply sees, so the change is made just before it, by
        // holding the write back at the server until the other change is in.
        Fs.writeFileSync(file, newsletter('age > 50'));
        const db = server.app.ctx.db;
        const hapi = server.app.server!;
        let intercepted = false;
        hapi.ext('onPreHandler', async (request, h) => {
            if (!intercepted && request.method === 'patch' && request.path === `/api/workflows/${workflowId}`) {
                intercepted = true;
                const current = await db.one<{ graph: { nodes: { data: Record<string, unknown> }[] } }>('SELECT graph FROM workflows WHERE id = $1', [workflowId]);
                const graph = current!.graph;
                graph.nodes[3]!.data.subject = 'Changed elsewhere';
                await hapi.inject({
                    method: 'PATCH',
                    url: `/api/workflows/${workflowId}`,
                    headers: { authorization: String(request.headers.authorization) },
                    payload: { graph }
                });
            }

            return h.continue;
        });

        const applied = await flowctl(['apply', '-f', file], { home });
        expect(intercepted).toBe(true);
        expect(applied.code).toBe(1);
        expect(applied.stderr).toMatch(/'Revised newsletter' \(wf_\w+\) changed on the server while apply compared it with \S*newsletter\.yaml: it is at revision 2, and apply had read revision 1, so nothing was written/);
        expect(applied.stderr).toContain('revision 2 at ');
        expect(applied.stderr).toContain('OUTPUT send: subject changed');
        expect(applied.stderr).toMatch(/see what apply would change now: flowctl diff -f \S*newsletter\.yaml, then apply again/);

        const now = await flowctl(['--json', 'workflows', 'get', workflowId], { home });
        expect(now.json.graph.nodes[2].data.expr).toBe('age > 30');
        expect(now.json.graph.nodes[3].data.subject).toBe('Changed elsewhere');
    });
});
