import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';

import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import Pino from 'pino';
import { describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.js';
import { textComposer } from '../src/mail/compose.js';
import { createMailer } from '../src/mail/mailer.js';

const FROM = 'flowctl <no-reply@flowctl.test>';

/** What a mail client reads out of a message. */
const read = async (raw: Buffer) => {
    const parsed = await simpleParser(raw);
    return {
        from: parsed.from?.value,
        to: (Array.isArray(parsed.to) ? parsed.to : [parsed.to]).flatMap((to) => to?.value ?? []),
        subject: parsed.subject ?? '',
        text: parsed.text ?? ''
    };
};

describe('the text message composer', () => {
    const compose = textComposer(FROM);
    const cases: Record<string, { subject: string; text: string }> = {
        plain: { subject: 'Hello Ada', text: 'Hi Ada,\nsee you in London.' },
        accents: { subject: 'Olá Zoë, ça va?', text: 'Café à Lisboa — até já!\nÜber 9000 €' },
        'mostly not latin': { subject: '日本語のお知らせ', text: 'こんにちは、世界。\nこれはテストです。' },
        'long lines': { subject: 'x'.repeat(200), text: `${'word '.repeat(400)}\n${'y'.repeat(1200)}` },
        'line endings': { subject: 'Mixed', text: 'one\r\ntwo\nthree\n\n.leading dot\n.\nend' },
        'encoded-word lookalike': { subject: '=?UTF-8?B?aGk=?= and =?', text: '=?UTF-8?Q?x?= =3D =\n' },
        'empty subject': { subject: '', text: '' }
    };

    for (const [name, { subject, text }] of Object.entries(cases)) {
        it(`reads back like nodemailer's MailComposer: ${name}`, async () => {
            const mail = { from: FROM, to: 'ada@example.test', subject, text };
            const ours = await compose(mail);
            const theirs = await new MailComposer(mail).compile().build();
            const [a, b] = await Promise.all([read(ours.raw), read(theirs)]);
            // MailComposer sends row text that looks like an encoded-word raw, and readers decode it.
            expect({ ...a, subject: '' }).toEqual({ ...b, subject: '' });
            expect(a.subject).toBe(subject);

            expect(ours.envelope).toEqual({ from: 'no-reply@flowctl.test', to: ['ada@example.test'] });
            for (const line of ours.raw.toString('utf8').split('\r\n')) {
                expect(line.length).toBeLessThanOrEqual(998);
                expect(line).not.toMatch(/[\r\n]/);
            }
        });
    }

    it('reads a lone CR as a line break rather than sending it bare', async () => {
        const { raw } = await compose({ from: FROM, to: 'ada@example.test', subject: 's', text: 'three\rfour' });
        expect(raw.toString()).toMatch(/\r\n\r\nthree\r\nfour\r\n$/);
        expect((await read(raw)).text).toBe('three\nfour\n');
    });

    it('gives every message its own Message-ID on the sender domain', async () => {
        const ids = new Set<string>();
        for (let i = 0; i < 50; i++) {
            const { messageId, raw } = await compose({ from: FROM, to: 'ada@example.test', subject: 's', text: 't' });
            expect(messageId).toMatch(/^<[0-9a-z.]+@flowctl\.test>$/);
            expect(raw.toString()).toContain(`Message-ID: ${messageId}`);
            ids.add(messageId);
        }

        expect(ids.size).toBe(50);
    });

    it("uses the caller's Message-ID when given, on both the quick and the general path", async () => {
        for (const to of ['ada@example.test', 'zoë@bücher.example']) {
            const { messageId, raw } = await compose({ from: FROM, to, subject: 's', text: 't', messageId: 'run-1.mail.7@flowctl.test' });
            expect(messageId).toBe('<run-1.mail.7@flowctl.test>');
            expect((await simpleParser(raw)).messageId).toBe('<run-1.mail.7@flowctl.test>');
        }
    });

    it("encodes the sender's display name like nodemailer does", async () => {
        for (const from of ['"Acme, Inc." <news@acme.test>', 'Zoë Müller <zoe@acme.test>', 'plain@acme.test']) {
            const mail = { from, to: 'ada@example.test', subject: 's', text: 't' };
            const [a, b] = await Promise.all([read((await textComposer(from)(mail)).raw), read(await new MailComposer(mail).compile().build())]);
            expect(a.from).toEqual(b.from);
        }
    });

    it('hands recipients that need IDN or SMTPUTF8 handling to MailComposer', async () => {
        const mail = { from: FROM, to: 'zoë@exämple.test', subject: 's', text: 't' };
        const composed = await compose(mail);
        expect(composed.envelope.to).toEqual(['zoë@xn--exmple-cua.test']);
        expect((await read(composed.raw)).to).toEqual((await read(await new MailComposer(mail).compile().build())).to);
    });

    it('refuses a sender that is not an address', () => {
        expect(() => textComposer('nobody')).toThrow("MAIL_FROM 'nobody' is not an e-mail address");
    });
});

describe('the outbox (no SMTP_URL)', () => {
    it('writes each e-mail as the bytes a relay would be sent: CRLF line ends throughout, headers and body', async () => {
        const dataDir = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-outbox-'));
        try {
            const mailer = createMailer(loadConfig({}, { smtpUrl: null, dataDir, mailFrom: FROM }), Pino({ level: 'silent' }));
            const sent = await mailer.send({ to: 'ada@example.test', subject: 'Hello Ada', text: 'Hi Ada,\nsee you\n\nin London.', unsubscribeUrl: 'http://flowctl.test/u/abc' });
            const [file, ...more] = await Fs.readdir(Path.join(dataDir, 'outbox'));
            expect(more).toEqual([]);
            const raw = await Fs.readFile(Path.join(dataDir, 'outbox', file as string));
            // Before: nodemailer's stream transport wrote CRLF headers over an LF body.
            expect(raw.toString('latin1')).not.toMatch(/[^\r]\n/);
            expect(raw.toString('latin1')).toContain(`Message-ID: ${sent.messageId}`);
            expect(await read(raw)).toMatchObject({ to: [{ address: 'ada@example.test' }], subject: 'Hello Ada', text: expect.stringMatching(/^Hi Ada,\nsee you\n\nin London\.\n?$/) });
            expect(raw.toString('latin1')).toContain('\r\nList-Unsubscribe: <http://flowctl.test/u/abc>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n');
            mailer.close();
        } finally {
            await Fs.rm(dataDir, { recursive: true, force: true });
        }
    });
});
