// Issue 32 §2: workflows history, diff, rollback, get --revision, runs get's revision, and apply's
// If-Match, through the built binary against a real server.
import { spawn } from 'node:child_process';
import Fs from 'node:fs';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BIN, cleanEnv, flowctl, freshHome, type Server, signUp, startServer, workflowDir } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

const newsletter = (expr: string, subject = 'Hello {{item.name}}') => `name: Revised newsletter
graph:
  nodes:
    - id: start
      type: TRIGGER
      data: {}
    - id: contacts
      type: DATA_SOURCE
      data:
        file: ./contacts.csv
    - id: audience
      type: FILTER
      data:
        source: "{{contacts.rows}}"
        expr: ${expr}
    - id: send
      type: OUTPUT
      data:
        forEach: "{{audience.items}}"
        to: "{{item.email}}"
        subject: ${subject}
        body: See you soon.
  edges:
    - { source: start, target: contacts }
    - { source: contacts, target: audience }
    - { source: audience, target: send }
`;

/** `flowctl args…` under a pseudo-terminal (util-linux `script`): what a person at a terminal sees. */
const atTerminal = (args: string[], home: string, env: Record<string, string>): Promise<string> =>
    new Promise((resolve, reject) => {
        const command = [process.execPath, BIN, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
        const child = spawn('script', ['-qfec', command, '/dev/null'], { env: cleanEnv(home, { TERM: 'xterm-256color', ...env }), stdio: 'pipe' });
        let screen = '';
        child.stdout.on('data', (chunk) => {
            screen += chunk;
        });
        child.on('error', reject);
        child.on('close', () => resolve(screen));
        child.stdin.end();
    });

describe('revisions from the command line', () => {
    it('diff says what apply would change, history what each revision changed, rollback goes back, get --revision prints a file apply takes', async () => {
        const home = freshHome();
        await signUp(server, home);
        const dir = workflowDir({ 'newsletter.yaml': newsletter('age > 30') });
        const file = Path.join(dir, 'newsletter.yaml');

        // Nothing on the server yet: all of it is new.
        const fresh = await flowctl(['diff', '-f', file], { home });
        expect(fresh.code, fresh.stderr).toBe(1);
        expect(fresh.stdout).toMatch(/^--- \/dev\/null\n\+\+\+ .*newsletter\.yaml\n@@ -0,0 \+1,\d+ @@\n\+name: Revised newsletter\n/);

        expect((await flowctl(['apply', '-f', file], { home })).code).toBe(0);
        const same = await flowctl(['diff', '-f', file], { home });
        expect([same.code, same.stdout, same.stderr]).toEqual([0, '', '']);

        Fs.writeFileSync(file, newsletter('age > 40', 'Hi {{item.name}}'));
        const changed = await flowctl(['diff', '-f', file], { home });
        expect(changed.code, changed.stderr).toBe(1);
        expect(changed.stdout).not.toContain('\u001b[');
        const lines = changed.stdout.split('\n');
        expect(lines[0]).toMatch(/^--- Revised newsletter \(server, wf_\w+ revision 1\)$/);
        expect(lines.filter((line) => /^[-+] /.test(line))).toEqual([
            '-        expr: age > 30',
            '+        expr: age > 40',
            '-        subject: Hello {{item.name}}',
            '+        subject: Hi {{item.name}}'
        ]);
        const json = await flowctl(['--json', 'diff', '-f', file], { home });
        expect(json.code).toBe(1);
        expect(json.json).toMatchObject({ differ: true, workflows: [{ action: 'update', revision: 1, changes: ['graph.nodes[2].data.expr', 'graph.nodes[3].data.subject'] }] });

        // Colour on a terminal only, and never with NO_COLOR.
        expect(await atTerminal(['diff', '-f', file], home, {})).toContain('\u001b[32m+        expr: age > 40');
        const plain = await atTerminal(['diff', '-f', file], home, { NO_COLOR: '1' });
        expect(plain).toContain('+        expr: age > 40');
        expect(plain).not.toMatch(/\u001b\[3\dm/);

        expect((await flowctl(['apply', '-f', file], { home })).code).toBe(0);
        expect((await flowctl(['diff', '-f', file], { home })).code).toBe(0);

        const history = await flowctl(['workflows', 'history', 'Revised newsletter'], { home });
        expect(history.code, history.stderr).toBe(0);
        expect(history.stdout).toMatch(/^REVISION\s+CREATED\s+CHANGE\n2 \(current\)\s+\S+\s+FILTER audience: expr changed; OUTPUT send: subject changed\n1\s+\S+\s+created\n/);

        const run = await flowctl(['--json', 'run', 'Revised newsletter', '--watch'], { home });
        expect(run.json).toMatchObject({ status: 'SUCCESS', revision: 2 });
        const shown = await flowctl(['runs', 'get', run.json.runId], { home });
        expect(shown.stdout).toMatch(/of wf_\w+ revision 2: SUCCESS/);

        const rollback = await flowctl(['workflows', 'rollback', 'Revised newsletter', '--to', '1'], { home });
        expect(rollback.code, rollback.stderr).toBe(0);
        expect(rollback.stdout).toContain('is now as at revision 1, as revision 3: FILTER audience: expr changed; OUTPUT send: subject changed');
        const again = await flowctl(['workflows', 'rollback', 'Revised newsletter', '--to', '3'], { home });
        expect(again.stdout).toContain('nothing to do');

        // The file has revision 2's graph: diff shows what apply would undo.
        expect((await flowctl(['diff', '-f', file], { home })).stdout).toContain('-        expr: age > 30\n+        expr: age > 40');

        const old = await flowctl(['workflows', 'get', 'Revised newsletter', '--revision', '2', '-o', 'yaml'], { home });
        expect(old.code, old.stderr).toBe(0);
        expect(old.stdout).toContain('expr: age > 40');
        Fs.writeFileSync(file, old.stdout);
        expect((await flowctl(['--json', 'apply', '-f', file], { home })).json.workflows[0]).toMatchObject({ action: 'updated', changes: ['graph.nodes[2].data.expr', 'graph.nodes[3].data.subject'] });
        expect((await flowctl(['diff', '-f', file], { home })).code).toBe(0);

        for (const bad of [
            ['workflows', 'get', 'Revised newsletter', '--revision', 'x'],
            ['workflows', 'rollback', 'Revised newsletter', '--to', '0']
        ]) {
            const refused = await flowctl(bad, { home });
            expect(refused.code).toBe(2);
            expect(refused.stderr).toMatch(/is not a revision number.*\n.*flowctl workflows history/);
        }

        const missing = await flowctl(['workflows', 'get', 'Revised newsletter', '--revision', '99'], { home });
        expect(missing.code).toBe(1);
        expect(missing.stderr).toMatch(/has no revision 99: its newest is 4/);
    });

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
