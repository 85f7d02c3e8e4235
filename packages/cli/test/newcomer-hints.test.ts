// What an outside newcomer tripped over: hints pasted as printed must act on the same profile and server,
// apply's hint about duplicate names must keep the workflow with the history, a stopped server on another
// port is started on that port, preview's counts are true for several sources, a refusal names the run
// once, and a watched run's end line comes after its nodes. Real server, real SMTP sink, built binary.
import Net from 'node:net';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { credentialsOf, EXAMPLES, flowctl, freshEmail, freshHome, otpFor, type Server, signUp, startServer, workflowDir } from './harness.js';

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

/** The command a hint line names after `label` (e.g. "next: "), as arguments for `flowctl`. */
const pasted = (output: string, label: string, fill: Record<string, string> = {}): string[] => {
    const line = output.split('\n').find((l) => l.includes(label));
    expect(line, `no '${label}' in:\n${output}`).toBeDefined();
    // The command ends at a parenthesis or a comma: what follows is said about it.
    let command = line!.slice(line!.indexOf(label) + label.length).split(/ \(|, /)[0]!.trim();
    for (const [placeholder, value] of Object.entries(fill)) {
        command = command.replace(placeholder, value);
    }

    const words = command.split(/\s+/);
    expect(words[0]).toBe('flowctl');
    return words.slice(1);
};

const NEWSLETTER = `name: Newcomer newsletter
graph:
  nodes:
    - { id: start, type: TRIGGER, data: {} }
    - { id: people, type: DATA_SOURCE, data: { file: contacts.csv } }
    - id: send
      type: OUTPUT
      data: { forEach: "{{people.rows}}", to: "{{item.email}}", subject: "Hi {{item.name}}", body: Hello }
  edges:
    - { source: start, target: people }
    - { source: people, target: send }
`;

describe('hints carry --profile and --api-url', () => {
    it('register --profile n2 --api-url: the pasted `next:` signs n2 in, and the default sign-in stays', async () => {
        const home = freshHome();
        const main = await signUp(server, home);
        const email = freshEmail('n2');
        const registered = await flowctl(['register', '--email', email, '--full-name', 'Second', '--password-stdin', '--profile', 'n2', '--api-url', server.url], {
            home,
            input: 'correct horse battery\n'
        });
        expect(registered.code, registered.stderr).toBe(0);
        const next = pasted(registered.stdout, 'next: ', { '<code>': await otpFor(server.smtp, email) });
        expect(next).toContain('--profile');

        const verified = await flowctl(next, { home });
        expect(verified.code, verified.stderr).toBe(0);
        const profiles = credentialsOf(home).profiles;
        expect(profiles.default.email).toBe(main.email);
        expect(profiles.n2.email).toBe(email);
        expect(profiles.n2.accessToken).toEqual(expect.any(String));
        const whoami = await flowctl(['whoami', '--profile', 'n2'], { home });
        expect(whoami.stdout).toContain(email);

        // A server message naming a route becomes the command, with the profile: the session is old now.
        await server.app.ctx.db.query("UPDATE sessions SET signed_in_at = signed_in_at - interval '11 minutes'");
        const token = await flowctl(['tokens', 'create', '--name', 'ci', '--profile', 'n2'], { home });
        expect(token.code).toBe(3);
        const [said] = token.stderr.split('\n');
        expect(said).toContain('log in again (`flowctl login --profile n2`) and retry');
        expect(said).not.toContain(', or flowctl login)');
    });

    it('a failed login --profile third --api-url: `try again:` keeps both flags', async () => {
        const home = freshHome();
        const { email } = await signUp(server, freshHome());
        const failed = await flowctl(['login', '--email', email, '--password-stdin', '--profile', 'third', '--api-url', server.url], { home, input: 'wrong password!\n' });
        expect(failed.code).toBe(3);
        const again = pasted(failed.stderr, 'try again: ');
        expect(again.join(' ')).toBe(`login --email ${email} --profile third --api-url ${server.url}`);

        const retried = await flowctl([...again, '--password-stdin'], { home, input: 'correct horse battery\n' });
        expect(retried.code, retried.stderr).toBe(0);
        expect(credentialsOf(home).profiles.third).toMatchObject({ email, apiUrl: server.url });
        expect(credentialsOf(home).profiles.default).toBeUndefined();
    });

    it('the default profile on its saved server: hints stay short', async () => {
        const home = freshHome();
        const email = freshEmail('short');
        const registered = await flowctl(['register', '--email', email, '--full-name', 'Short', '--password-stdin', '--api-url', server.url], { home, input: 'correct horse battery\n' });
        expect(registered.stdout).toContain(`next: flowctl verify --email ${email} --code <code>\n`);
    });
});

describe('apply with a duplicate name', () => {
    it('keeps the first made (its runs), and the hint removes the one workflows create just made', async () => {
        const home = freshHome();
        await signUp(server, home);
        const file = Path.join(workflowDir({ 'x.yaml': NEWSLETTER }), 'x.yaml');
        const first = await flowctl(['--json', 'apply', '-f', file], { home });
        expect(first.code, first.stderr).toBe(0);
        const older = first.json.workflows[0].workflowId as string;
        expect((await flowctl(['run', older, '--watch'], { home })).code).toBe(0);
        const duplicate = await flowctl(['--json', 'workflows', 'create', '-f', file], { home });
        expect(duplicate.code, duplicate.stderr).toBe(0);
        const newer = duplicate.json.workflowId as string;

        const refused = await flowctl(['apply', '-f', file], { home });
        expect(refused.code).toBe(2);
        const hint = refused.stderr.split('\n').find((line) => line.includes('→'))!;
        expect(hint).toContain(`keep the first made, ${older} (its runs, revisions and hook URL stay)`);
        const rm = pasted(refused.stderr, 'with all their runs: ');
        expect(rm).toEqual(['workflows', 'rm', newer, '--yes']);

        expect((await flowctl(rm, { home })).code).toBe(0);
        const applied = await flowctl(['--json', 'apply', '-f', file], { home });
        expect(applied.code, applied.stderr).toBe(0);
        expect(applied.json.workflows[0]).toMatchObject({ workflowId: older, action: 'unchanged' });
        expect((await flowctl(['--json', 'runs', 'list', older], { home })).json).toHaveLength(1);
    });
});

describe('a server that is not running', () => {
    it('names the port it tried: PORT=… npm start', async () => {
        const port = await new Promise<number>((resolve) => {
            const probe = Net.createServer().listen(0, '127.0.0.1', () => {
                const { port: free } = probe.address() as Net.AddressInfo;
                probe.close(() => resolve(free));
            });
        });
        const res = await flowctl(['register', '--email', freshEmail('down'), '--full-name', 'Down', '--password-stdin', '--api-url', `http://127.0.0.1:${port}`], {
            home: freshHome(),
            input: 'correct horse battery\n'
        });
        expect(res.code).toBe(1);
        expect(res.stderr).toContain(`cannot reach the flowctl server at http://127.0.0.1:${port}`);
        expect(res.stderr).toContain(`start it (\`PORT=${port} npm start\` in the repository)`);
    });
});

describe('preview of a workflow with two sources', () => {
    it('counts the e-mails alone and each source’s rows beside them', async () => {
        const home = freshHome();
        await signUp(server, home);
        expect((await flowctl(['apply', '-f', Path.join(EXAMPLES, 'workflows', 'two-sources.yaml')], { home })).code).toBe(0);
        const res = await flowctl(['preview', 'Meetup head count for staff'], { home });
        expect(res.code, res.stderr).toBe(0);
        expect(res.stdout.trimEnd().split('\n').at(-1)).toBe('would send 2 e-mails; read 7 rows from 2 sources (contacts: 5, staff: 2); 2 filtered out');
    });
});

describe('runs', () => {
    it('cancel of an ended run names it once', async () => {
        const home = freshHome();
        await signUp(server, home);
        const file = Path.join(workflowDir({ 'x.yaml': NEWSLETTER }), 'x.yaml');
        expect((await flowctl(['apply', '-f', file], { home })).code).toBe(0);
        const run = await flowctl(['--json', 'run', 'Newcomer newsletter', '--watch'], { home });
        expect(run.json.status).toBe('SUCCESS');
        const runId = run.json.runId as string;

        const cancelled = await flowctl(['runs', 'cancel', runId], { home });
        expect(cancelled.code).toBe(1);
        const [first] = cancelled.stderr.split('\n');
        expect(first).toBe(`error: run ${runId} cannot be cancelled: it already ended SUCCESS: only PENDING and RUNNING runs can be cancelled`);
        expect(cancelled.stderr).toContain(`see how it ended: flowctl runs get ${runId}`);
    });

    it('retry --watch without a terminal: the node lines come before the run’s end line', async () => {
        const home = freshHome();
        await signUp(server, home);
        const file = Path.join(workflowDir({ 'x.yaml': NEWSLETTER }), 'x.yaml');
        expect((await flowctl(['apply', '-f', file], { home })).code).toBe(0);
        server.smtp.failNext(1, 550);
        const failed = await flowctl(['--json', 'run', 'Newcomer newsletter', '--watch'], { home });
        expect(failed.json.status).toBe('FAILED');

        server.smtp.failNext(1, 550);
        const retried = await flowctl(['runs', 'retry', failed.json.runId, '--watch'], { home });
        expect(retried.code).toBe(1);
        const lines = retried.stdout.split('\n');
        const end = lines.findIndex((line) => /^run run_\w+: FAILED$/.test(line));
        expect(end, retried.stdout).toBeGreaterThan(-1);
        expect(lines.findIndex((line) => line.startsWith('node start (TRIGGER): SUCCESS'))).toBeLessThan(end);
        expect(lines.slice(end + 1).filter((line) => line.startsWith('node ')), retried.stdout).toEqual([]);
    });
});
