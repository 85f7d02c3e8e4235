import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';

import { textComposer } from '../src/mail/compose.js';

// Messages as a relay checks them (RFC 5322 line lengths) and as a reader shows them: what the
// sender wrote, whatever a row holds.

const FROM = 'flowctl <no-reply@flowctl.test>';
const compose = textComposer(FROM);

const headerLines = (raw: Buffer): string[] => {
    const text = raw.toString('utf8');
    return text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
};

const bodyLines = (raw: Buffer): string[] => {
    const text = raw.toString('utf8');
    return text.slice(text.indexOf('\r\n\r\n') + 4).split('\r\n');
};

const subjects: Record<string, string> = {
    'a long unbroken word': `Your report ${'x'.repeat(1080)}`,
    'a 3,000-character word': 'y'.repeat(3000),
    'a 990-character URL': `See https://example.test/${'a1b2c3/'.repeat(138)}?q=1 today`,
    'a long non-Latin word': `お知らせ${'日本語'.repeat(300)}`,
    'a long word among accents': `Olá Zoë ${'z'.repeat(500)} ça va?`,
    'many short words': 'word '.repeat(400).trim(),
    'an encoded-word in a row value': 'Your offer from =?UTF-8?B?SGFja2Vk?=',
    'a Q encoded-word, lower case': 'Hi =?utf-8?q?not_encoded?= there',
    'an encoded-word glued to a word': 'see:=?UTF-8?B?SGFja2Vk?=!',
    'spaces kept as written': 'two  spaces and\ta tab   end',
    'wide whitespace': `a${' '.repeat(200)}b`,
    'Unicode spaces': 'non\u00a0breaking\u2028line'
};

describe('headers as relays expect them', () => {
    for (const [name, subject] of Object.entries(subjects)) {
        it(`keeps every header line within 78 characters and reads back as written: ${name}`, async () => {
            const { raw } = await compose({ from: FROM, to: 'ada@example.test', subject, text: 'hi' });
            for (const line of headerLines(raw)) {
                expect(Buffer.byteLength(line)).toBeLessThanOrEqual(78);
            }

            expect((await simpleParser(raw)).subject).toBe(subject);
        });
    }

    it('sends the encoded-word lookalike of a row encoded, so no reader decodes it', async () => {
        const { raw } = await compose({ from: FROM, to: 'ada@example.test', subject: 'Offer from =?UTF-8?B?SGFja2Vk?=', text: 'hi' });
        expect(raw.toString()).not.toContain('=?UTF-8?B?SGFja2Vk?=');
        expect((await simpleParser(raw)).subject).toBe('Offer from =?UTF-8?B?SGFja2Vk?=');
    });

    it('leaves short ASCII subjects readable as they are', async () => {
        const { raw } = await compose({ from: FROM, to: 'ada@example.test', subject: 'Hello Ada, your invoice #12 (due 3/4)', text: 'hi' });
        expect(headerLines(raw)).toContain('Subject: Hello Ada, your invoice #12 (due 3/4)');
    });

    it('encodes a display name holding an encoded-word lookalike', async () => {
        for (const from of ['"=?UTF-8?B?SGFja2Vk?=" <news@acme.test>', '"Acme =?utf-8?q?x?= news" <news@acme.test>', `"${'Long name '.repeat(30).trim()}" <news@acme.test>`]) {
            const { raw } = await textComposer(from)({ from, to: 'ada@example.test', subject: 's', text: 't' });
            const parsed = await simpleParser(raw);
            const [sender] = parsed.from?.value ?? [];
            expect(sender?.address).toBe('news@acme.test');
            expect(sender?.name).toBe(from.slice(1, from.lastIndexOf('"')));
            for (const line of headerLines(raw)) {
                expect(Buffer.byteLength(line)).toBeLessThanOrEqual(78);
            }
        }
    });

    it('keeps the Message-ID line short whatever the node id', async () => {
        const { deliveryMessageId } = await import('../src/mail/compose.js');
        const id = deliveryMessageId('run1', 'n'.repeat(5000), 3, 'flowctl.test');
        const { raw } = await compose({ from: FROM, to: 'ada@example.test', subject: 's', text: 't', messageId: id });
        for (const line of headerLines(raw)) {
            expect(Buffer.byteLength(line)).toBeLessThanOrEqual(998);
        }

        expect(deliveryMessageId('run1', 'n'.repeat(5000), 3, 'flowctl.test')).toBe(id);
        expect(deliveryMessageId('run1', `${'n'.repeat(4999)}m`, 3, 'flowctl.test')).not.toBe(id);
    });
});

describe('bodies that mbox delivery and dot-stuffing leave alone', () => {
    const texts: Record<string, string> = {
        'From at a line start': 'Hello,\nFrom now on we ship on Mondays.\nBye',
        'a leading dot': 'Totals:\n.5 of the rows\n.\nend',
        'From on the first line': 'From the team',
        'a dot after a soft line break': `${'x'.repeat(73)}....${'y'.repeat(10)}`,
        'From after a soft line break': `${'w '.repeat(36)}From here on`,
        'accents and From': 'Olá!\nFrom Zoë, ça va?'
    };
    for (const [name, text] of Object.entries(texts)) {
        it(`encodes such lines in quoted-printable and reads back the same: ${name}`, async () => {
            const { raw } = await compose({ from: FROM, to: 'ada@example.test', subject: 's', text });
            expect(headerLines(raw)).toContain('Content-Transfer-Encoding: quoted-printable');
            for (const line of bodyLines(raw)) {
                expect(line).not.toMatch(/^(From |\.)/);
                expect(line.length).toBeLessThanOrEqual(76);
            }

            expect((await simpleParser(raw)).text).toBe(`${text}\n`);
        });
    }

    it('keeps plain short-lined text 7bit', async () => {
        const { raw } = await compose({ from: FROM, to: 'ada@example.test', subject: 's', text: 'Hi Ada,\nsee you.' });
        expect(headerLines(raw)).toContain('Content-Transfer-Encoding: 7bit');
    });
});
