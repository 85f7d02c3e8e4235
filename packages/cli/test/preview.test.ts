// flowctl preview against a real server and SMTP sink: e-mails as a mail reader shows them, the
// counts, -f for an edit not applied yet, --send-test to the caller only, and --json.
import Fs from 'node:fs';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EXAMPLES, flowctl, freshHome, type Server, signUp, startServer, workflowDir } from './harness.js';

const NAME = 'Newsletter to subscribers over 30';
const NEWSLETTER = Path.join(EXAMPLES, 'workflows', 'newsletter.yaml');

describe('flowctl preview', () => {
    let server: Server;
    let home: string;
    let email: string;
    beforeAll(async () => {
        server = await startServer();
        home = freshHome();
        ({ email } = await signUp(server, home));
        const applied = await flowctl(['apply', '-f', NEWSLETTER], { home });
        expect(applied.code, applied.stderr).toBe(0);
    });
    afterAll(async () => {
        await server?.close();
    });

    it('prints each e-mail as a mail reader shows it, then the counts; sends nothing', async () => {
        const before = server.smtp.messages.length;
        const res = await flowctl(['preview', NAME, '--rows', '2'], { home });
        expect(res.code, res.stderr).toBe(0);
        expect(res.stdout).toContain(
            [
                '── send #0 ──',
                '  From: flowctl <no-reply@flowctl.test>',
                '  To: ada@example.com',
                '  Subject: Hello Ada Lovelace',
                '',
                '  Hi Ada Lovelace,',
                '',
                '  The London meetup is on Thursday. See you there!',
                ''
            ].join('\n')
        );
        expect(res.stdout).toContain('  To: alan@example.com');
        expect(res.stdout).not.toContain('margaret@example.com');
        expect(res.stdout.trimEnd().split('\n').at(-1)).toBe('would send 3 of 5 rows; 2 filtered out');
        expect(server.smtp.messages.length).toBe(before);
    });

    it('-f previews an edit before apply; the server keeps its graph', async () => {
        const edited = Fs.readFileSync(NEWSLETTER, 'utf8').replace('subject: Hello {{item.name}}', 'subject: Last call, {{item.name}}').replace('file: ../contacts.csv', 'file: ./contacts.csv');
        const dir = workflowDir({ 'newsletter.yaml': edited });
        const res = await flowctl(['preview', '-f', Path.join(dir, 'newsletter.yaml'), '--rows', '1'], { home });
        expect(res.code, res.stderr).toBe(0);
        expect(res.stdout).toContain('  Subject: Last call, Ada Lovelace');
        const again = await flowctl(['--json', 'preview', NAME, '--rows', '1'], { home });
        expect(again.json.emails[0].subject).toBe('Hello Ada Lovelace');

        const unknown = workflowDir({ 'other.yaml': edited.replace(`name: ${NAME}`, 'name: Not applied yet') });
        const missing = await flowctl(['preview', '-f', Path.join(unknown, 'other.yaml')], { home });
        expect(missing.code).toBe(1);
        expect(missing.stderr).toContain('flowctl apply -f');
    });

    it('shows the text part, then says an HTML part exists and shows it as text, a row\'s markup as the text it is', async () => {
        const withHtml = Fs.readFileSync(NEWSLETTER, 'utf8')
            .replace('file: ../contacts.csv', 'file: ./contacts.csv')
            .replace('        body: |', '        html: "<p>Dear <b>{{item.name}}</b> &amp; friends,</p><p>see you in {{item.city}}.</p>"\n        body: |');
        const csv = Fs.readFileSync(Path.join(EXAMPLES, 'contacts.csv'), 'utf8').replace('Ada Lovelace', 'Ada <i>Lovelace</i>');
        const dir = workflowDir({ 'newsletter.yaml': withHtml, 'contacts.csv': csv });
        const res = await flowctl(['preview', '-f', Path.join(dir, 'newsletter.yaml'), '--rows', '1'], { home });
        expect(res.code, res.stderr).toBe(0);
        // The text part first, as a mail reader without HTML shows it; then the HTML part, tags gone:
        // the row's <i> survives as text only because the server escaped it.
        const text = res.stdout.indexOf('  The London meetup is on Thursday. See you there!');
        const html = res.stdout.indexOf(['(HTML part, shown as text)', '  Dear Ada <i>Lovelace</i> & friends,', '  see you in London.', ''].join('\n'));
        expect(text).toBeGreaterThan(0);
        expect(html).toBeGreaterThan(text);
    });

    it('--send-test mails the shown e-mails to the signed-in account only; --json prints the response', async () => {
        const before = server.smtp.messages.length;
        const res = await flowctl(['--json', 'preview', NAME, '--rows', '1', '--send-test'], { home });
        expect(res.code, res.stderr).toBe(0);
        expect(res.json).toMatchObject({ testSent: 1, result: { totalRows: 5, filteredOut: 2, emailsToSend: 3, suppressed: 0 } });
        const [mail] = (await server.smtp.waitFor(before + 1)).slice(before);
        expect(mail).toMatchObject({ to: [email], subject: '[test] Hello Ada Lovelace' });
    });

    it('--rows outside 1–20 is a usage error (exit 2)', async () => {
        const res = await flowctl(['preview', NAME, '--rows', '21'], { home });
        expect(res.code).toBe(2);
        expect(res.stderr).toContain('--rows');
    });
});
