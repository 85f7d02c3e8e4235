// --help as a user reads it: examples that work when pasted, the global options under every
// subcommand, and every exit code.
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

const help = async (command: string[]): Promise<string> => {
    const result = await flowctl([...command, '--help'], { home: freshHome() });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
};

/** The argv of each `$ flowctl …` example line, as a shell would split it (a `> file` at the end dropped); lines with pipes or placeholders are left out. */
const pastable = (text: string): string[][] =>
    text
        .split('\n')
        .map((line) => /^\s+\$ flowctl (.*?)(?: > \S+)?$/.exec(line)?.[1])
        .filter((line): line is string => line !== undefined && !/[|>]|wf_abc|run_abc|tok_abc|<|\$/.test(line))
        .map((line) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!));

describe('--help', () => {
    it('shows the global options under every subcommand, and lists exit code 130', async () => {
        expect(await help([])).toMatch(/130 interrupted \(Ctrl-C\)/);
        for (const command of [['runs', 'list'], ['settings', 'ai', 'set'], ['whoami'], ['apply']]) {
            const text = await help(command);
            expect(text, command.join(' ')).toContain('Global Options:');
            expect(text, command.join(' ')).toMatch(/--api-url <url>[\s\S]*--profile <name>/);
        }
    });

    it('examples that name a workflow work when pasted, after `flowctl apply -f examples/workflows/newsletter.yaml`', async () => {
        const home = freshHome();
        const env = { FLOWCTL_API_URL: server.url };
        await signUp(server, home);
        const applied = await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'newsletter.yaml')], { home, env });
        expect(applied.code, applied.stderr).toBe(0);

        const examples = [...pastable(await help([])), ...pastable(await help(['run'])), ...pastable(await help(['runs', 'list'])), ...pastable(await help(['workflows', 'get']))].filter(
            (argv) => argv.includes('Newsletter to subscribers over 30')
        );
        expect(examples.map((argv) => argv.slice(0, 2).join(' '))).toEqual(['run Newsletter to subscribers over 30', 'run Newsletter to subscribers over 30', 'runs list', 'workflows get']);
        for (const argv of examples) {
            const result = await flowctl(argv, { home, env });
            expect(result.code, `flowctl ${argv.join(' ')}: ${result.stderr}`).toBe(0);
        }
    });

    it('a name that is not exact says that names match in full, and suggests the whole name', async () => {
        const home = freshHome();
        const env = { FLOWCTL_API_URL: server.url };
        await signUp(server, home);
        const applied = await flowctl(['--json', 'apply', '-f', Path.join(EXAMPLES, 'workflows', 'newsletter.yaml')], { home, env });
        const id = applied.json.workflows[0].workflowId;
        const result = await flowctl(['runs', 'list', 'Newsletter'], { home, env });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain("no workflow is named exactly 'Newsletter' (names match in full, case included)");
        expect(result.stderr).toContain(`did you mean "Newsletter to subscribers over 30" (${id})?`);
    });
});
