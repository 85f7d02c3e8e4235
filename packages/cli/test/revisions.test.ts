// Issue 32 §2: workflows history, diff, rollback and get --revision through the built binary against
// a real server. (runs retry's revision, diff's exit codes and apply's If-Match: revisions-apply.test.ts,
// apart so that the two run beside each other.)
import { spawn } from 'node:child_process';
import Fs from 'node:fs';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BIN, cleanEnv, flowctl, freshHome, type Server, signUp, startServer, workflowDir } from './harness.js';
import { newsletter } from './revised-newsletter.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

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
});
