import { afterEach, describe, expect, it } from 'vitest';

import { isTemporary } from '../src/mail/smtp-errors.js';
import { SmtpPool } from '../src/mail/smtp-pool.js';
import { startSmtpSink } from './smtp.js';

const FROM = 'flowctl <no-reply@flowctl.test>';
const mail = (to: string) => ({ from: FROM, to, subject: 'Hi', text: 'Hello' });
const retry = { attempts: 10, forMs: 20_000, delayMs: 20 };

describe('SMTP failures: temporary ones are retried, permanent ones reported', () => {
    const cleanups: (() => unknown)[] = [];
    afterEach(async () => {
        for (const cleanup of cleanups.splice(0).reverse()) {
            await cleanup();
        }
    });

    const setup = async () => {
        const sink = await startSmtpSink();
        const pool = new SmtpPool(sink.url, FROM, { timeoutMs: 2000 });
        cleanups.push(() => sink.close(), () => pool.close());
        return { sink, pool };
    };

    it('tells 4xx replies and connection errors (temporary) from 5xx replies and anything else (permanent)', () => {
        expect(isTemporary({ code: 'EMESSAGE', responseCode: 451 })).toBe(true);
        expect(isTemporary({ code: 'EENVELOPE', responseCode: 421 })).toBe(true);
        expect(isTemporary({ code: 'ECONNREFUSED' })).toBe(true);
        expect(isTemporary({ code: 'ECONNECTION', command: 'CONN' })).toBe(true);
        expect(isTemporary({ code: 'ETIMEDOUT' })).toBe(true);
        expect(isTemporary({ code: 'EENVELOPE', responseCode: 550 })).toBe(false);
        expect(isTemporary({ code: 'EAUTH', responseCode: 535 })).toBe(false);
        expect(isTemporary({ code: 'ESTREAM' })).toBe(false);
        expect(isTemporary(new Error('the mailer is closed'))).toBe(false);
    });

    it('delivers a message once the server stops answering 451', async () => {
        const { sink, pool } = await setup();
        sink.failNext(3);
        await pool.send(mail('ada@example.test'), { retry });
        expect(sink.attempts).toBe(4);
        expect(sink.messages.map((m) => m.to)).toEqual([['ada@example.test']]);
    });

    it('delivers a message whose connection dropped in the middle of its data', async () => {
        const { sink, pool } = await setup();
        sink.dropNext(2);
        await pool.send(mail('ada@example.test'), { retry });
        expect(sink.messages.map((m) => m.to)).toEqual([['ada@example.test']]);
    });

    it('waits for a server that is down for a while', async () => {
        const { sink, pool } = await setup();
        await pool.send(mail('ada@example.test'));
        const down = sink.down(1500);
        await pool.send(mail('alan@example.test'), { retry: { ...retry, delayMs: 100 } });
        await down;
        expect(sink.messages.map((m) => m.to)).toEqual([['ada@example.test'], ['alan@example.test']]);
    });

    it('fails a 5xx at once, with the server reply', async () => {
        const { sink, pool } = await setup();
        sink.failNext(1, 554);
        await expect(pool.send(mail('ada@example.test'), { retry })).rejects.toMatchObject({ responseCode: 554, message: expect.stringContaining('try again later') });
        expect(sink.attempts).toBe(1);

        sink.reject('bounce@example.test');
        await expect(pool.send(mail('bounce@example.test'), { retry })).rejects.toMatchObject({ responseCode: 550, message: expect.stringContaining('mailbox unavailable') });
        await pool.send(mail('alan@example.test'), { retry });
        expect(sink.messages.map((m) => m.to)).toEqual([['alan@example.test']]);
    });

    it('gives up after the allowed attempts, saying how long it tried', async () => {
        const { sink, pool } = await setup();
        sink.failNext(100);
        await expect(pool.send(mail('ada@example.test'), { retry: { ...retry, attempts: 3 } })).rejects.toMatchObject({
            responseCode: 451,
            message: expect.stringMatching(/try again later \(gave up after 3 attempts over \d+ s\)$/)
        });
        expect(sink.attempts).toBe(3);
    });

    it('tries once without a retry policy', async () => {
        const { sink, pool } = await setup();
        sink.failNext(1);
        await expect(pool.send(mail('ada@example.test'))).rejects.toMatchObject({ responseCode: 451 });
        expect(sink.attempts).toBe(1);
    });

    it('stops waiting to retry when its signal aborts', async () => {
        const { sink, pool } = await setup();
        sink.failNext(100);
        const controller = new AbortController();
        const sending = pool.send(mail('ada@example.test'), { retry: { ...retry, delayMs: 60_000, forMs: 120_000 }, signal: controller.signal });
        while (sink.attempts === 0) {
            await new Promise((resolve) => setTimeout(resolve, 10));
        }

        controller.abort(new Error('run cancelled'));
        await expect(sending).rejects.toThrow('run cancelled');
        expect(sink.attempts).toBe(1);
    });
});
