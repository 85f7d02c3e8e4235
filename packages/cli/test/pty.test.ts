// Under a real pseudo-terminal (util-linux `script`): the interactive login prompt with a hidden
// password, the spinner display of run --watch, and Ctrl-C that stops watching but not the run.
import { type ChildProcess, spawn } from 'node:child_process';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BIN, cleanEnv, EXAMPLES, flowctl, freshHome, type Server, signUp, startServer, workflowDir } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

const quote = (arg: string) => `'${arg.replace(/'/g, "'\\''")}'`;

interface Terminal {
    output(): string;
    waitFor(pattern: RegExp): Promise<string>;
    type(text: string): void;
    exited: Promise<number | null>;
}

/** `flowctl args…` with a pty as its stdin, stdout and stderr; we type into it and read the screen. */
const terminal = (args: string[], home: string, env: Record<string, string> = {}): Terminal => {
    const command = [process.execPath, BIN, ...args].map(quote).join(' ');
    const child: ChildProcess = spawn('script', ['-qfec', command, '/dev/null'], {
        env: cleanEnv(home, { TERM: 'xterm-256color', COLUMNS: '120', LINES: '40', ...env }),
        stdio: 'pipe'
    });
    let screen = '';
    const waiters = new Set<() => void>();
    child.stdout!.on('data', (chunk) => {
        screen += chunk;
        for (const wake of waiters) {
            wake();
        }
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    return {
        output: () => screen,
        type: (text) => child.stdin!.write(text),
        exited,
        waitFor: (pattern) =>
            new Promise((resolve, reject) => {
                const check = () => {
                    const match = pattern.exec(screen);
                    if (match) {
                        waiters.delete(check);
                        resolve(match[0]);
                    }
                };
                waiters.add(check);
                exited.then(() => {
                    check();
                    reject(new Error(`exited before ${pattern} appeared; the screen:\n${screen}`));
                });
                check();
            })
    };
};

describe('on a terminal', () => {
    it('login asks for the e-mail address and the password, and never shows the password', async () => {
        const home = freshHome();
        const { email, password } = await signUp(server, freshHome());
        const login = terminal(['login', '--api-url', server.url], home);
        await login.waitFor(/E-mail address:/);
        login.type(`${email}\r`);
        await login.waitFor(/Password:/);
        login.type(`${password}\r`);
        expect(await login.exited).toBe(0);
        expect(login.output()).toContain(`signed in as ${email}`);
        expect(login.output()).not.toContain(password);
        expect((await flowctl(['whoami', '--json'], { home })).json.account.email).toBe(email);
    });

    it('run --watch shows a spinner, then one line per node and the result', async () => {
        const home = freshHome();
        await signUp(server, home);
        expect((await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'newsletter.yaml')], { home })).code).toBe(0);
        const watch = terminal(['run', 'Newsletter to subscribers over 30', '--watch'], home);
        expect(await watch.exited).toBe(0);
        const screen = watch.output();
        expect(screen).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
        for (const node of ['start (TRIGGER)', 'contacts (DATA_SOURCE)', 'audience (FILTER)', 'send (OUTPUT)']) {
            expect(screen).toMatch(new RegExp(`✓\\S* ${node.replace(/[()]/g, '\\$&')}`));
        }

        expect(screen).toMatch(/SUCCESS in \S+ · 5 rows, 2 filtered out, 3 e-mails sent/);
    });

    it('run --watch draws a progress bar per sending node with counts, rate and ETA, in place; NO_COLOR leaves the colours out', async () => {
        const rows = 400;
        const csv = ['name,email', ...Array.from({ length: rows }, (_, i) => `P${i},p${i}@bars.example.test`)].join('\n');
        const dir = workflowDir({
            'people.csv': csv,
            'bars.yaml': [
                'name: Bars',
                'graph:',
                '  nodes:',
                '    - { id: start, type: TRIGGER, data: {} }',
                '    - { id: people, type: DATA_SOURCE, data: { file: ./people.csv } }',
                '    - { id: send, type: OUTPUT, data: { forEach: "{{people.rows}}", to: "{{item.email}}", subject: Hi, body: "Hi {{item.name}}" } }',
                '  edges:',
                '    - { source: start, target: people }',
                '    - { source: people, target: send }'
            ].join('\n')
        });
        const home = freshHome();
        await signUp(server, home);
        expect((await flowctl(['apply', '-f', dir], { home })).code).toBe(0);
        // 8 connections, 100 ms a message: 80 e-mails a second, so the OUTPUT runs for about 5 s.
        server.smtp.delay(100);
        try {
            for (const env of [{}, { NO_COLOR: '1' }] as Record<string, string>[]) {
                const watch = terminal(['run', 'Bars', '--watch'], home, env);
                await watch.waitFor(/send \(OUTPUT\) \[[^\]]+\] \d+\/400 e-mails · [\d.]+\/s · ETA \d+s/);
                expect(await watch.exited).toBe(0);
                const screen = watch.output();
                // Redrawn in place: the bar's line is cleared and written again, not appended line after line.
                const bars = screen.match(/\d+\/400 e-mails/g) ?? [];
                expect(new Set(bars).size).toBeGreaterThan(1);
                expect(screen).toMatch(/\u001b\[(?:2K|1G|\d*A)/);
                expect(screen).toMatch(/SUCCESS in \S+ · 400 rows, 0 filtered out, 400 e-mails sent/);
                const colours = /\u001b\[[0-9;]*m/.test(screen);
                expect([env, colours]).toEqual([env, !('NO_COLOR' in env)]);
            }
        } finally {
            server.smtp.delay(0);
        }
    });

    it('Ctrl-C stops watching with exit 130 and the command to resume; the run goes on', async () => {
        const home = freshHome();
        await signUp(server, home);
        expect((await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'newsletter.yaml')], { home })).code).toBe(0);
        const watch = terminal(['run', 'Newsletter to subscribers over 30', '--watch'], home);
        await watch.waitFor(/waiting to start/);
        watch.type('\u0003');
        expect(await watch.exited).toBe(130);
        const resume = /flowctl runs watch (run_\w+)/.exec(watch.output());
        expect(resume, watch.output()).not.toBeNull();
        expect(watch.output()).toContain('goes on');

        const resumed = await flowctl(['--json', 'runs', 'watch', resume![1]!], { home });
        expect(resumed.code, resumed.stderr).toBe(0);
        expect(resumed.json).toMatchObject({ status: 'SUCCESS', result: { emailsSent: 3 } });
    });
});
