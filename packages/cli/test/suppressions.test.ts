// flowctl suppressions against a real server: list, add, rm, and import of a file with bad lines
// (each reported by line number; the good ones added, or none with --all-or-nothing), in batches.
import Fs from 'node:fs';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BIN, cleanEnv, flowctl, freshHome, runCommand, type Server, signUp, startServer, workflowDir } from './harness.js';

describe('flowctl suppressions', () => {
    let server: Server;
    let home: string;
    beforeAll(async () => {
        server = await startServer();
        home = freshHome();
        await signUp(server, home);
    });
    afterAll(async () => {
        await server?.close();
    });

    it('adds, lists and removes addresses, case-insensitively', async () => {
        const added = await flowctl(['--json', 'suppressions', 'add', 'Ada@Example.com', ' bob@example.com '], { home });
        expect(added.code, added.stderr).toBe(0);
        expect(added.json).toEqual({ added: 2, alreadyPresent: 0 });
        const again = await flowctl(['--json', 'suppressions', 'add', 'ada@example.COM'], { home });
        expect(again.json).toEqual({ added: 0, alreadyPresent: 1 });

        const list = await flowctl(['suppressions', 'list'], { home });
        expect(list.code, list.stderr).toBe(0);
        expect(list.stdout).toMatch(/EMAIL\s+REASON/);
        expect(list.stdout).toMatch(/Ada@Example\.com\s+manual/);

        const removed = await flowctl(['suppressions', 'rm', 'ADA@example.com'], { home });
        expect(removed.code, removed.stderr).toBe(0);
        const gone = await flowctl(['suppressions', 'rm', 'ada@example.com'], { home });
        expect(gone.code).toBe(1);
        expect(gone.stderr).toContain('flowctl suppressions list');

        const bad = await flowctl(['suppressions', 'add', 'not-an-address'], { home });
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain('argument 1');
    });

    it('imports a file in batches, naming every bad line by number; --all-or-nothing adds none', async () => {
        const good = Array.from({ length: 12_000 }, (_, i) => `"Person ${i}",p${i}@import.test`);
        const lines = ['name,Email', ...good.slice(0, 5), '"Broken",not an address', ...good.slice(5), 'x,', '"Also, bad",@nowhere'];
        const dir = workflowDir({ 'list.csv': `${lines.join('\n')}\n` });
        const file = Path.join(dir, 'list.csv');

        const strict = await flowctl(['--json', 'suppressions', 'import', file, '--all-or-nothing'], { home });
        expect(strict.code).toBe(1);
        expect(strict.json.error).toMatchObject({ invalidCount: 3, added: 0 });
        expect(strict.json.error.invalid.map((b: { line: number }) => b.line)).toEqual([7, 12_003, 12_004]);
        const none = await flowctl(['--json', 'suppressions', 'list'], { home });
        expect(none.json.filter((s: { email: string }) => s.email.endsWith('@import.test'))).toEqual([]);

        const res = await flowctl(['--json', 'suppressions', 'import', file], { home });
        expect(res.code).toBe(1);
        expect(res.stderr).toContain('line 7: not an address');
        expect(res.stderr).toContain('line 12003');
        expect(res.stderr).toContain('line 12004: @nowhere');
        expect(res.json.error).toMatchObject({ added: 12_000, alreadyPresent: 0, invalidCount: 3 });
        const count = await server.app.ctx.db.one<{ n: number }>("SELECT count(*)::int AS n FROM suppressions WHERE email_key LIKE '%@import.test'");
        expect(count?.n).toBe(12_000);

        const plain = Path.join(dir, 'plain.txt');
        Fs.writeFileSync(plain, 'p1@import.test\r\nnew@import.test\r\n');
        const twice = await flowctl(['--json', 'suppressions', 'import', plain], { home });
        expect(twice.code, twice.stderr).toBe(0);
        expect(twice.json).toMatchObject({ added: 1, alreadyPresent: 1, invalidCount: 0 });
    });

    it('reads a pipe once: --all-or-nothing, which must read its file twice, refuses one instead of adding nothing and exiting 0', async () => {
        // A shell pipe into /dev/stdin, as `grep … | flowctl suppressions import /dev/stdin` gives it.
        const piped = (flags: string) =>
            runCommand('sh', ['-c', `printf 'piped1@pipe.test\\npiped2@pipe.test\\n' | "$NODE" "$BIN" --json suppressions import /dev/stdin ${flags}`], {
                env: { ...cleanEnv(home), NODE: process.execPath, BIN }
            });
        const count = async () => (await server.app.ctx.db.one<{ n: number }>("SELECT count(*)::int AS n FROM suppressions WHERE email_key LIKE '%@pipe.test'"))?.n;

        const strict = await piped('--all-or-nothing');
        expect(strict.code, strict.stdout).toBe(2);
        expect(strict.stderr).toContain('--all-or-nothing');
        expect(await count()).toBe(0);

        const once = await piped('');
        expect(once.code, once.stderr).toBe(0);
        expect(JSON.parse(once.stdout)).toMatchObject({ added: 2, alreadyPresent: 0, invalidCount: 0 });
        expect(await count()).toBe(2);
    });
});
