// Every example in examples/ run as its header says, against a real server: who receives which
// e-mail and what it says. (ai-summary.yaml is covered by the AI tests.)
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ReceivedMail } from '../../../apps/server/test/smtp.js';
import { BIN, cleanEnv, EXAMPLES, flowctl, freshEmail, freshHome, runCommand, type Server, signUp, startServer } from './harness.js';

const WORKFLOWS = Path.join(EXAMPLES, 'workflows');

let server: Server;

beforeAll(async () => {
    server = await startServer();
});

afterAll(async () => {
    await server?.close();
});

/** Signs up through the CLI, applies one example file and runs its workflow to the end; the e-mails it sent. */
const applyAndRun = async (file: string, name: string, folder = WORKFLOWS): Promise<ReceivedMail[]> => {
    const home = freshHome();
    await signUp(server, home);
    const applied = await flowctl(['--json', 'apply', '-f', Path.join(folder, file)], { home });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.json.workflows).toEqual([expect.objectContaining({ name, action: 'created' })]);

    const before = server.smtp.messages.length;
    const run = await flowctl(['--json', 'run', name, '--watch'], { home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.status).toBe('SUCCESS');
    return (await server.smtp.waitFor(before + run.json.result.emailsSent)).slice(before);
};

/** The newsletter's text, with its one-click unsubscribe link (issue 29). */
const invitation = (name: string, city: string) =>
    new RegExp(`^Hi ${name},\\n\\nThe ${city} meetup is on Thursday\\. See you there!\\n\\nTo stop these e-mails: http://[^/\\s]+/u/[A-Za-z0-9_-]+$`);

/** An example's text, then the recipient's own unsubscribe link. */
const unsubscribable = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n\\nTo stop these e-mails: http://[^/\\s]+/u/[A-Za-z0-9_-]+$`);

const byRecipient = (mails: { to: string[]; subject: string; text: string }[]) =>
    Object.fromEntries(mails.map((mail) => [mail.to.join(','), { subject: mail.subject, text: mail.text.trim() }]));

describe('examples/workflows/newsletter.yaml', () => {
    it('invites the subscribed contacts over 30, each by name, with their city', async () => {
        const mails = await applyAndRun('newsletter.yaml', 'Newsletter to subscribers over 30');
        // Not mailed: Grace (unsubscribed) and Linus (29).
        expect(mails.flatMap((mail) => mail.to)).not.toEqual(expect.arrayContaining(['grace@example.com']));
        expect(mails.flatMap((mail) => mail.to)).not.toEqual(expect.arrayContaining(['linus@example.com']));
        expect(byRecipient(mails)).toEqual({
            'ada@example.com': { subject: 'Hello Ada Lovelace', text: expect.stringMatching(invitation('Ada Lovelace', 'London')) },
            'alan@example.com': { subject: 'Hello Alan Turing', text: expect.stringMatching(invitation('Alan Turing', 'Manchester')) },
            'margaret@example.com': { subject: 'Hello Margaret Hamilton', text: expect.stringMatching(invitation('Margaret Hamilton', 'Boston')) }
        });
    });
});

describe('examples/workflows/two-sources.yaml', () => {
    it('tells each staff member how many contacts the newsletter invites (3), and not who they are', async () => {
        const mails = await applyAndRun('two-sources.yaml', 'Meetup head count for staff');
        // Only the staff: no contact (Margaret is both, and gets the staff e-mail alone).
        expect(mails.flatMap((mail) => mail.to).sort()).toEqual(['katherine@example.com', 'margaret@example.com']);
        const staff = byRecipient(mails);
        expect(staff['margaret@example.com']?.text).toBe(
            'Hi Margaret Hamilton (apollo),\n\n3 of our 5 contacts (the subscribers over 30) were invited to the meetup.\nPlan seats for 3 guests.'
        );
        expect(staff['katherine@example.com']?.text).toMatch(/^Hi Katherine Johnson \(orbit\),\n\n3 of our 5 contacts/);
        for (const mail of mails) {
            expect(mail.subject).toBe('Meetup invitations sent');
            // No subscriber's address, age or city leaks into the staff e-mail.
            expect(mail.text).not.toMatch(/ada@example\.com|linus@|Helsinki|"age"/);
        }
    });
});

/** Runs a file of examples/ with `command`, in a clean environment; resolves with its exit and output. */
const runExample = (command: string, args: string[], env: NodeJS.ProcessEnv) => runCommand(command, args, { env, cwd: Path.dirname(EXAMPLES) });

describe('examples/sdk-script.mjs', () => {
    it('with a personal API token, uploads, creates the workflow, runs it and e-mails the audience', async () => {
        const home = freshHome();
        await signUp(server, home);
        const token = await flowctl(['--json', 'tokens', 'create', '--name', 'script'], { home });
        expect(token.code, token.stderr).toBe(0);

        const env = cleanEnv(freshHome(), { FLOWCTL_API_URL: server.url, FLOWCTL_TOKEN: token.json.token });
        for (const attempt of [1, 2]) {
            // The second run finds its workflow by name and updates it instead of creating another.
            const before = server.smtp.messages.length;
            const script = await runExample(process.execPath, [Path.join(EXAMPLES, 'sdk-script.mjs')], env);
            expect(script.code, `attempt ${attempt}: ${script.stderr}`).toBe(0);
            expect(script.stdout).toContain('uploaded contacts.csv: 5 rows');
            const result = /^SUCCESS: (\{.*\})$/m.exec(script.stdout)?.[1];
            expect(JSON.parse(result ?? 'null')).toMatchObject({ totalRows: 5, filteredOut: 2, emailsSent: 3 });
            expect(byRecipient((await server.smtp.waitFor(before + 3)).slice(before))).toEqual({
                'ada@example.com': { subject: 'Hello Ada Lovelace', text: expect.stringMatching(unsubscribable('See you in London!')) },
                'alan@example.com': { subject: 'Hello Alan Turing', text: expect.stringMatching(unsubscribable('See you in Manchester!')) },
                'margaret@example.com': { subject: 'Hello Margaret Hamilton', text: expect.stringMatching(unsubscribable('See you in Boston!')) }
            });
        }

        const listed = await flowctl(['--json', 'workflows', 'list'], { home });
        expect(listed.json.filter((w: { name: string }) => w.name === 'SDK example: subscribers over 30')).toHaveLength(1);
    });
});

describe('examples/quickstart.sh', () => {
    it('goes from an empty account to the newsletter e-mails in the outbox', async () => {
        // A server as `npm start` runs it: no SMTP_URL, so every e-mail is an .eml file in the outbox.
        const outboxServer = await startServer({ smtpUrl: null });
        try {
            const dataDir = outboxServer.app.ctx.config.dataDir;
            // The script calls `npx --no flowctl`: this makes that the CLI built here, whether or not
            // npm linked node_modules/.bin/flowctl in this checkout.
            const bin = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-bin-'));
            Fs.writeFileSync(Path.join(bin, 'flowctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
            const email = freshEmail('quickstart');
            // A sign-in the user saved before: the script signs in under its own profile and leaves it alone.
            const home = freshHome();
            const saved = { profiles: { default: { apiUrl: 'https://flowctl.example.com', email: 'me@example.com', accessToken: 'a', refreshToken: 'r' } } };
            Fs.mkdirSync(Path.join(home, 'flowctl'), { recursive: true });
            Fs.writeFileSync(Path.join(home, 'flowctl', 'credentials.json'), JSON.stringify(saved));
            const env = cleanEnv(home, {
                FLOWCTL_API_URL: outboxServer.url,
                FLOWCTL_DATA_DIR: dataDir,
                EMAIL: email,
                PATH: `${bin}${Path.delimiter}${process.env.PATH}`
            });
            const script = await runExample('bash', [Path.join(EXAMPLES, 'quickstart.sh')], env);
            expect(script.code, `${script.stdout}\n${script.stderr}`).toBe(0);
            expect(JSON.parse(Fs.readFileSync(Path.join(home, 'flowctl', 'credentials.json'), 'utf8')).profiles.default).toEqual(saved.profiles.default);
            expect(script.stdout).toContain("Signed in as profile 'quickstart'");

            const outbox = Path.join(dataDir, 'outbox');
            const mails = await Promise.all(
                Fs.readdirSync(outbox)
                    .filter((name) => name.endsWith('.eml'))
                    .map(async (name) => {
                        const mail = await simpleParser(Fs.readFileSync(Path.join(outbox, name)));
                        const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((group) => group.value.map((entry) => entry.address ?? ''));
                        return { to, subject: mail.subject ?? '', text: mail.text ?? '' };
                    })
            );
            const [code, ...others] = mails.filter((mail) => mail.to.includes(email));
            expect(others).toEqual([]);
            expect(code?.text).toMatch(/verification code is \d{6}/);
            expect(byRecipient(mails.filter((mail) => !mail.to.includes(email)))).toEqual({
                'ada@example.com': { subject: 'Hello Ada Lovelace', text: expect.stringMatching(invitation('Ada Lovelace', 'London')) },
                'alan@example.com': { subject: 'Hello Alan Turing', text: expect.stringMatching(invitation('Alan Turing', 'Manchester')) },
                'margaret@example.com': { subject: 'Hello Margaret Hamilton', text: expect.stringMatching(invitation('Margaret Hamilton', 'Boston')) }
            });
            // The script's last step lists what the run wrote.
            expect(script.stdout).toContain('6. the e-mails it sent:');
            expect(script.stdout.trim().split('\n').at(-1)).toMatch(/\.eml$/);
        } finally {
            await outboxServer.close();
        }
    });
});

// Apart from examples/workflows/, which the quickstart applies: a schedule mails on its own.
describe('examples/scheduled/daily-digest.yaml', () => {
    it('run by hand between its ticks, mails every subscribed contact', async () => {
        const mails = await applyAndRun('daily-digest.yaml', 'Weekday digest', Path.join(EXAMPLES, 'scheduled'));
        const subscribed = Fs.readFileSync(Path.join(EXAMPLES, 'contacts.csv'), 'utf8')
            .trim()
            .split('\n')
            .slice(1)
            .filter((line) => /,true(,|$)/i.test(line)).length;
        expect(mails).toHaveLength(subscribed);
        expect(mails[0]?.subject).toMatch(/^Your weekday digest, /);
        expect(mails[0]?.text).toMatch(/\n\nTo stop these e-mails: http:\/\/[^/\s]+\/u\/[A-Za-z0-9_-]+\s*$/);
    });
});
