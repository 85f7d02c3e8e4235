import { afterEach, describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.js';
import { heloName } from '../src/mail/helo.js';
import { createMailer } from '../src/mail/mailer.js';
import { SmtpPool } from '../src/mail/smtp-pool.js';
import { startSmtpSink } from './smtp.js';

// What a strict relay checks before it reads a message: the EHLO name, and lines within 998 bytes.

const FROM = 'flowctl <no-reply@flowctl.test>';
const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof createMailer>[1];

describe('a message as a strict relay takes it', () => {
    const cleanups: (() => unknown)[] = [];
    afterEach(async () => {
        for (const cleanup of cleanups.splice(0).reverse()) {
            await cleanup();
        }
    });

    it('names the MAIL_FROM domain in EHLO, or SMTP_HELO_NAME when set', async () => {
        const sink = await startSmtpSink();
        cleanups.push(() => sink.close());
        for (const env of [{ MAIL_FROM: 'News <news@mail.acme.test>' }, { MAIL_FROM: 'News <news@mail.acme.test>', SMTP_HELO_NAME: 'relay-out.acme.test' }]) {
            const mailer = createMailer(loadConfig({ ...env, SMTP_URL: sink.url }), silent);
            cleanups.push(() => mailer.close());
            await mailer.send({ to: 'ada@example.test', subject: 's', text: 't' });
        }

        expect(sink.heloNames).toEqual(['mail.acme.test', 'relay-out.acme.test']);
    });

    it('falls back on a fully qualified host name, never on an address literal', () => {
        expect(heloName(null, 'flowctl <no-reply@localhost>', 'box.example.net')).toBe('box.example.net');
        expect(heloName(null, 'flowctl <no-reply@localhost>', 'box')).toBe('localhost');
        expect(heloName(null, 'no-reply@acme.test', 'box.example.net')).toBe('acme.test');
    });

    it('has a message with a 3,000-character subject word accepted by a relay that refuses lines over 998 bytes', async () => {
        const sink = await startSmtpSink();
        const pool = new SmtpPool(sink.url, FROM, { timeoutMs: 5000 });
        cleanups.push(() => sink.close(), () => pool.close());
        const subject = `Report ${'q'.repeat(3000)}`;
        await pool.send({ from: FROM, to: 'ada@example.test', subject, text: `${'b'.repeat(2000)}\nFrom here` });
        expect(sink.tooLong).toBe(0);
        expect(sink.messages.map((m) => [m.subject, m.text])).toEqual([[subject, `${'b'.repeat(2000)}\nFrom here`]]);
    });
});
