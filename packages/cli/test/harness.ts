// A real server (embedded store, real SMTP sink) in the test process, and the BUILT flowctl binary
// spawned against it over a real socket, each test with its own config folder.
import { spawn } from 'node:child_process';
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { type App, type Config, createApp, loadConfig } from '@flowctl/server';
import Pino from 'pino';
import { inject } from 'vitest';

import { type SmtpSink, startSmtpSink } from '../../../apps/server/test/smtp.js';

declare module 'vitest' {
    export interface ProvidedContext {
        /** A migrated PGlite data directory, from the server's global setup. */
        pgTemplate: string;
        /** The PostgreSQL project's migrated database (read by the server's test harness). */
        pgTemplateDatabase: string | null;
    }
}

export const BIN = Path.resolve(import.meta.dirname, '..', 'dist', 'bin.js');
export const EXAMPLES = Path.resolve(import.meta.dirname, '..', '..', '..', 'examples');

export interface Server {
    url: string;
    smtp: SmtpSink;
    app: App;
    close(): Promise<void>;
}

export const startServer = async (overrides: Partial<Config> = {}): Promise<Server> => {
    const smtp = await startSmtpSink();
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-cli-test-'));
    Fs.cpSync(inject('pgTemplate'), Path.join(dataDir, 'pg'), { recursive: true });
    const config = loadConfig({ FLOWCTL_DATA_DIR: dataDir, PORT: '0' }, { smtpUrl: smtp.url, mailFrom: 'flowctl <no-reply@flowctl.test>', ...overrides });
    const app = await createApp(config, { logger: Pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
    await app.start();
    return {
        url: app.url!,
        smtp,
        app,
        async close() {
            await app.stop();
            await smtp.close();
            Fs.rmSync(dataDir, { recursive: true, force: true });
        }
    };
};

export interface Result {
    code: number | null;
    stdout: string;
    stderr: string;
    // biome-ignore lint/suspicious/noExplicitAny: tests read JSON documents of every shape
    json: any;
}

/** A config folder of its own (XDG_CONFIG_HOME), like a fresh machine. */
export const freshHome = (): string => Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-cli-home-'));

/** The environment a CI job would give: no terminal, nothing of the developer's own. */
export const cleanEnv = (home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: home, ...extra };
    for (const name of ['FLOWCTL_TOKEN', 'FLOWCTL_API_URL', 'GITHUB_ACTIONS', 'CI', 'NO_COLOR', 'FORCE_COLOR']) {
        if (!(name in extra)) {
            delete env[name];
        }
    }

    return env;
};

export interface RunOptions {
    home: string;
    env?: Record<string, string>;
    input?: string;
    cwd?: string;
}

/** Runs a command with pipes for stdin/stdout/stderr (so: no TTY anywhere); resolves when it has exited. */
export const runCommand = (command: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string }): Promise<Omit<Result, 'json'>> =>
    new Promise((resolve, reject) => {
        const child = spawn(command, args, { env: options.env, cwd: options.cwd ?? process.cwd(), stdio: 'pipe' });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => {
            stdout += chunk;
        });
        child.stderr.on('data', (chunk) => {
            stderr += chunk;
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(options.input ?? '');
    });

/** Runs `flowctl args…` as `runCommand` does; `json` is its output read as JSON, when it is. */
export const flowctl = async (args: string[], options: RunOptions): Promise<Result> => {
    const result = await runCommand(process.execPath, [BIN, ...args], { env: cleanEnv(options.home, options.env), cwd: options.cwd, input: options.input });
    let json: unknown;
    try {
        json = JSON.parse(result.stdout);
    } catch {
        json = undefined;
    }

    return { ...result, json };
};

/** The six-digit code of the newest e-mail the sink received for `email`. */
export const otpFor = async (smtp: SmtpSink, email: string): Promise<string> => {
    for (;;) {
        const mine = smtp.messages.filter((m) => m.to.includes(email));
        const code = mine.length > 0 ? /verification code is (\d{6})/.exec(mine.at(-1)!.text)?.[1] : undefined;
        if (code) {
            return code;
        }

        await smtp.waitFor(smtp.messages.length + 1);
    }
};

let counter = 0;
export const freshEmail = (tag = 'cli'): string => `${tag}-${process.pid}-${++counter}-${Date.now().toString(36)}@example.test`;

/** register + verify through the CLI (with --password-stdin), into `home` against `server`. */
export const signUp = async (server: Server, home: string, email = freshEmail()): Promise<{ email: string; password: string }> => {
    const password = 'correct horse battery';
    const env = { FLOWCTL_API_URL: server.url };
    const registered = await flowctl(['register', '--email', email, '--full-name', 'Test Person', '--password-stdin'], { home, env, input: `${password}\n` });
    if (registered.code !== 0) {
        throw new Error(`register failed: ${registered.stderr}`);
    }

    const verified = await flowctl(['verify', '--email', email, '--code', await otpFor(server.smtp, email)], { home, env });
    if (verified.code !== 0) {
        throw new Error(`verify failed: ${verified.stderr}`);
    }

    return { email, password };
};

export const credentialsOf = (home: string) => JSON.parse(Fs.readFileSync(Path.join(home, 'flowctl', 'credentials.json'), 'utf8'));

/** A workflow YAML file in a fresh folder, with contacts.csv copied beside it. */
export const workflowDir = (files: Record<string, string>): string => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-cli-wf-'));
    Fs.copyFileSync(Path.join(EXAMPLES, 'contacts.csv'), Path.join(dir, 'contacts.csv'));
    for (const [name, text] of Object.entries(files)) {
        Fs.writeFileSync(Path.join(dir, name), text);
    }

    return dir;
};

/** A workflow whose every e-mail fails: `to` is a name, not an address. */
export const failingWorkflow = `name: Bad addresses
graph:
  nodes:
    - { id: start, type: TRIGGER, data: {} }
    - { id: contacts, type: DATA_SOURCE, data: { file: ./contacts.csv } }
    - id: send
      type: OUTPUT
      data: { forEach: "{{contacts.rows}}", to: "{{item.name}}", subject: Hi, body: Hello }
  edges:
    - { source: start, target: contacts }
    - { source: contacts, target: send }
`;
