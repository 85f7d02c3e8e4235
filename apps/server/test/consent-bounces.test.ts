// Issue 29, asynchronous bounces: e-mails go out with a VERP envelope sender; an RFC 3464 DSN and an
// RFC 5965 complaint mailed (over real SMTP) to the bounce receiver suppress the recipient they name,
// for the account whose token verifies; a forged token, or a report naming another address, changes nothing.
import Nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { newsletter, runsApi } from './run-fixtures.js';

const dsn = (to: string, recipient: string, action = 'failed', status = '5.1.1') =>
    [
        'From: Mail Delivery System <MAILER-DAEMON@mx.example.org>',
        `To: <${to}>`,
        'Subject: Undelivered Mail Returned to Sender',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status;',
        '\tboundary="DSN-BOUNDARY"',
        '',
        'This is a MIME-encapsulated message.',
        '',
        '--DSN-BOUNDARY',
        'Content-Type: text/plain; charset=us-ascii',
        '',
        'I could not deliver your message.',
        '',
        '--DSN-BOUNDARY',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mx.example.org',
        'Arrival-Date: Thu, 26 Nov 2026 10:00:00 +0000',
        '',
        `Final-Recipient: rfc822; ${recipient}`,
        `Original-Recipient: rfc822;${recipient}`,
        `Action: ${action}`,
        `Status: ${status}`,
        'Diagnostic-Code: smtp; 550 5.1.1 user unknown',
        '',
        '--DSN-BOUNDARY',
        'Content-Type: text/rfc822-headers',
        '',
        'From: flowctl <no-reply@flowctl.test>',
        `To: ${recipient}`,
        'Subject: Hello',
        '',
        '--DSN-BOUNDARY--',
        ''
    ].join('\r\n');

const arf = (to: string, returnPath: string, recipient: string) =>
    [
        'From: <staff@hotmail.example>',
        `To: <${to}>`,
        'Subject: complaint about message',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=feedback-report; boundary="ARF"',
        '',
        '--ARF',
        'Content-Type: text/plain; charset="US-ASCII"',
        '',
        'This is an e-mail abuse report.',
        '',
        '--ARF',
        'Content-Type: message/feedback-report',
        '',
        'Feedback-Type: abuse',
        'User-Agent: SomeGenerator/1.0',
        'Version: 1',
        `Original-Mail-From: <${returnPath}>`,
        `Original-Rcpt-To: <${recipient}>`,
        '',
        '--ARF',
        'Content-Type: message/rfc822',
        'Content-Disposition: inline',
        '',
        `Return-Path: <${returnPath}>`,
        'From: flowctl <no-reply@flowctl.test>',
        `To: ${recipient}`,
        'Subject: Hello',
        '',
        'Hi',
        '',
        '--ARF--',
        ''
    ].join('\r\n');

describe('bounce receiver', () => {
    let t: TestServer;
    let account: TestAccount;
    let other: TestAccount;
    let transport: Nodemailer.Transporter;
    /** Envelope sender of the e-mail to each address. */
    const returnPaths = new Map<string, string>();

    const deliver = (to: string, raw: string) => transport.sendMail({ envelope: { from: '', to: [to] }, raw });
    const listOf = async (who: TestAccount) =>
        ((await t.request({ method: 'GET', url: '/api/suppressions', headers: who.headers })).json as { email: string; reason: string }[]).map((s) => [s.email, s.reason]);

    beforeAll(async () => {
        t = await startTestServer({ config: { bounce: { smtpPort: 0, smtpHost: '127.0.0.1', address: 'bounces@bounce.flowctl.test' } } });
        transport = Nodemailer.createTransport({ host: '127.0.0.1', port: t.app.bouncePort!, secure: false, ignoreTLS: true });
        account = await createAccount(t);
        other = await createAccount(t);
        for (const who of [account, other]) {
            const api = runsApi(t, who);
            const csv = who === account ? 'name,email,age\nA,gone@example.org,30\nB,angry@example.org,30\nC,fine@example.org,30\n' : 'name,email,age\nD,theirs@example.org,30\n';
            const before = t.smtp.messages.length;
            const run = await api.run(await api.workflow(newsletter(await api.upload(csv), 'age > 0')));
            expect(run.status).toBe('SUCCESS');
            for (const mail of (await t.smtp.waitFor(before + run.result!.emailsSent)).slice(before)) {
                returnPaths.set(mail.to[0]!, mail.envelopeFrom);
            }
        }
    });

    afterAll(async () => {
        transport?.close();
        await t?.close();
    });

    it('sends with a VERP envelope sender that shows neither the recipient nor anything readable but the account', () => {
        const path = returnPaths.get('gone@example.org')!;
        expect(path).toMatch(new RegExp(`^bounces\\+${account.accountId}\\.[0-9a-f]{20}@bounce\\.flowctl\\.test$`));
        expect(path.length - '@bounce.flowctl.test'.length).toBeLessThanOrEqual(64);
        expect(returnPaths.get('fine@example.org')).not.toBe(path);
    });

    it('suppresses as bounced the recipient a DSN names, and as complained the one an ARF report names', async () => {
        await deliver(returnPaths.get('gone@example.org')!, dsn(returnPaths.get('gone@example.org')!, 'gone@example.org'));
        // A complaint comes to the feedback address, quoting the original's Return-Path.
        const angry = returnPaths.get('angry@example.org')!;
        await deliver(angry, arf(angry, angry, 'angry@example.org'));
        expect((await listOf(account)).sort()).toEqual([
            ['angry@example.org', 'complained'],
            ['gone@example.org', 'bounced']
        ]);
    });

    it('changes nothing for a forged token, a report naming another address (of another account), or a delay', async () => {
        const fine = returnPaths.get('fine@example.org')!;
        const forged = fine.replace(/\.([0-9a-f])/, (_m, c: string) => `.${c === 'a' ? 'b' : 'a'}`);
        await deliver(forged, dsn(forged, 'fine@example.org'));
        // The token of fine@ does not verify for theirs@, another account's recipient.
        await deliver(fine, dsn(fine, 'theirs@example.org'));
        await deliver(fine, arf(fine, fine, 'theirs@example.org'));
        // A temporary failure, and a policy refusal, say nothing of the address.
        await deliver(fine, dsn(fine, 'fine@example.org', 'delayed', '4.4.7'));
        await deliver(fine, dsn(fine, 'fine@example.org', 'failed', '5.7.1'));
        // Not a report at all.
        await transport.sendMail({ envelope: { from: '', to: [fine] }, raw: 'From: x@example.org\r\nSubject: hi\r\n\r\nhello\r\n' });

        expect((await listOf(account)).map(([email]) => email).sort()).toEqual(['angry@example.org', 'gone@example.org']);
        expect(await listOf(other)).toEqual([]);
    });

    it('refuses mail for addresses that carry no token', async () => {
        await expect(deliver('postmaster@bounce.flowctl.test', dsn('postmaster@bounce.flowctl.test', 'fine@example.org'))).rejects.toMatchObject({ responseCode: 550 });
    });
});
