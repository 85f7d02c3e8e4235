// Issue 33: every `--help` ends with examples, and every example works when pasted on a default server
// (the user's own ids put in for wf_abc, run_abc, tok_abc and their address for me@example.com). The
// few that cannot be pasted here each say why, and must still be in the help.
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BIN, cleanEnv, EXAMPLES, flowctl, freshHome, runCommand, type Server, signUp, startServer } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

/** Every command path with its help, walked from the Commands: sections of the help (each read once). */
const commandPaths = async (home: string, path: string[] = []): Promise<{ path: string[]; help: string }[]> => {
    const help = (await flowctl([...path, '--help'], { home })).stdout;
    const section = /\nCommands:\n([\s\S]*?)(?:\n\n|$)/.exec(help)?.[1] ?? '';
    const names = [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
    const children = await Promise.all(names.map((name) => commandPaths(home, [...path, name])));
    return [{ path, help }, ...children.flat()];
};

const examplesOf = (help: string): string[] => (/\nExamples:\n((?: {2}\$ .*\n?)+)/.exec(help)?.[1] ?? '').split('\n').filter(Boolean).map((line) => line.replace(/^ {2}\$ /, ''));

/** Not pasted here, and why. Each must still be an example somewhere. */
const NOT_PASTED: Record<string, string> = {
    'flowctl register --email me@example.com --full-name "Me"': 'asks for a password at a terminal',
    'printf %s "$PASSWORD" | flowctl register --email me@example.com --full-name Me --password-stdin': 'the account exists already (signed up by this test)',
    'flowctl verify --email me@example.com --code 123456': 'needs the code e-mailed at sign-up',
    'flowctl verify --email me@example.com --resend': 'the account is verified already',
    'flowctl set-password': 'asks for a password at a terminal',
    'flowctl reset-password --email me@example.com': 'asks for the e-mailed code at a terminal',
    'printf %s "$PASSWORD" | flowctl reset-password --email me@example.com --code <code> --password-stdin': 'needs the e-mailed code',
    'flowctl login': 'asks at a terminal',
    'flowctl login --profile staging --api-url https://flowctl.example.com': 'another server',
    'flowctl google connect': 'needs Google set up by the operator (GOOGLE_CLIENT_ID…), which a default server is not',
    'flowctl google connect --no-browser': 'needs Google set up by the operator (GOOGLE_CLIENT_ID…), which a default server is not',
    'flowctl workflows rm wf_abc': 'asks for confirmation at a terminal',
    'flowctl runs cancel run_abc': 'needs a run still going',
    'flowctl runs retry run_abc --watch': 'needs a run that failed',
    'flowctl workflows rotate-hook wf_abc': 'needs a workflow whose TRIGGER takes rows by hook (webhook: true); no example has one'
};

// Run after the others, as they change what the others read.
const LAST = ['flowctl workflows rm wf_abc --yes', 'flowctl uploads rm upl_abc', 'flowctl tokens revoke tok_abc', 'flowctl logout --profile staging', 'flowctl logout'];

/**
 * A guard against a hang, not a speed limit: the case starts about 140 CLI processes one after another,
 * which took 97 s on a quiet 2-core machine, 225 s on a slower one, and over 400 s there beside another CI.
 */
const HANG_GUARD_MS = 900_000;

describe('--help examples', () => {
    it('end every help, and work when pasted', async () => {
        const home = freshHome();
        const { email, password } = await signUp(server, home);
        const paths = await commandPaths(home);
        expect(paths.length).toBeGreaterThan(25);
        const all: string[] = [];
        for (const { path, help } of paths) {
            expect(help.trimEnd(), `flowctl ${path.join(' ')} --help ends with examples`).toMatch(/\nExamples:\n(?: {2}\$ .*\n)* {2}\$ .*$/);
            all.push(...examplesOf(help).filter((line) => !all.includes(line)));
        }

        for (const skipped of Object.keys(NOT_PASTED)) {
            expect(all, `an example not pasted is still in the help: ${skipped}`).toContain(skipped);
        }

        // The user's own folder: the repository's examples/ beside what the examples write (newsletter.yaml).
        const cwd = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-paste-'));
        Fs.symlinkSync(EXAMPLES, Path.join(cwd, 'examples'));
        const env = { ...cleanEnv(home, { FLOWCTL_API_URL: server.url }), PASSWORD: password, OPENAI_API_KEY: 'sk-pasted-0123456789', PATH: `${Path.dirname(BIN)}:${process.env.PATH}` };
        // Asynchronous: the server answers from this process.
        const paste = async (line: string, ids: Record<string, string>): Promise<string> => {
            const command = Object.entries(ids).reduce((text, [from, to]) => text.split(from).join(to), line);
            // `flowctl` as the user has it: the built binary.
            const { code, stdout, stderr } = await runCommand('bash', ['-o', 'pipefail', '-c', command.replace(/\bflowctl /g, `node ${BIN} `)], { cwd, env });
            expect(code, `pasted: ${command}\n${stderr}`).toBe(0);
            return stdout;
        };

        const applied = JSON.parse(await paste('flowctl apply -f examples/workflows/ --json', {}));
        // The scheduled example, which the pause and resume examples name.
        await paste('flowctl apply -f examples/scheduled/ --json', {});
        const newsletter = applied.workflows.find((w: { name: string }) => w.name === 'Newsletter to subscribers over 30').workflowId;
        const run = JSON.parse(await paste(`flowctl run ${newsletter} --watch --json`, {}));
        const token = JSON.parse(await paste('flowctl tokens create --name pasted --json', {}));
        // An upload no workflow reads, for `uploads get` and `uploads rm`.
        Fs.writeFileSync(Path.join(cwd, 'people.csv'), 'name,email\nAda,ada@example.com\n');
        const upload = JSON.parse(await paste('flowctl upload people.csv --json', {}));
        // The files the suppressions import examples name.
        Fs.writeFileSync(Path.join(cwd, 'unsubscribed.csv'), 'email\ngrace@example.com\n');
        Fs.writeFileSync(Path.join(cwd, 'list.txt'), 'linus@example.com\n');
        const ids = { wf_abc: newsletter, run_abc: run.runId, tok_abc: token.id, upl_abc: upload.uploadId, 'me@example.com': email };

        const pasted = all.filter((line) => !(line in NOT_PASTED) && !LAST.includes(line));
        expect(pasted.length).toBeGreaterThan(25);
        for (const line of pasted) {
            await paste(line, ids);
        }

        // workflows rm by id removes a workflow of its own, made by the `workflows create` example.
        const created = JSON.parse(await paste('flowctl workflows list --json', {})).filter((w: { name: string }) => w.name === 'Meetup head count for staff');
        expect(created).toHaveLength(2);
        for (const line of LAST) {
            expect(all).toContain(line);
            await paste(line, { ...ids, wf_abc: created.at(-1).id });
        }
    }, HANG_GUARD_MS);
});
