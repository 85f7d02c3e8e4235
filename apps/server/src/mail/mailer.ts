import Crypto from 'node:crypto';
import Fs from 'node:fs/promises';
import Path from 'node:path';

import Nodemailer from 'nodemailer';
import type { Logger } from 'pino';

import type { Config } from '../config.js';
import { nodemailerMessage } from './compose.js';
import { SmtpPool } from './smtp-pool.js';

export interface Mail {
    to: string;
    subject: string;
    text: string;
    /** A stable Message-ID for this message (with or without angle brackets); otherwise one is made up. */
    messageId?: string;
    /** An HTML part (multipart/alternative with `text`). */
    html?: string;
    /** Adds List-Unsubscribe and List-Unsubscribe-Post (one-click). */
    unsubscribeUrl?: string;
    /** The envelope sender when not MAIL_FROM's address (a VERP address). */
    envelopeFrom?: string;
}

export interface SendOptions {
    /**
     * The message may be delivered only after this resolves, and must not be if it rejects. Lets the
     * caller finish recording the previous delivery while this one is composed and addressed.
     */
    after?: Promise<unknown>;
    /** Aborting fails the send at once, even with the message under way. */
    signal?: AbortSignal;
    /**
     * Whether temporary failures (4xx replies, connection errors) are tried again, with backoff,
     * under the SMTP_RETRY_* settings. Off by default: a request waiting on an e-mail should not
     * wait minutes.
     */
    retry?: boolean;
    /**
     * Called just before the message goes out, from when it may be delivered; if it throws, it does
     * not go. `again`: an earlier attempt went out unanswered, so this copy may be a duplicate.
     */
    onTransmit?: (info: { again: boolean }) => void | Promise<void>;
    /** An attempt that went out was refused by the server: that copy was not accepted. */
    onRefused?: () => void;
}

export interface Mailer {
    /** Resolves once the transport accepted the message. */
    send(mail: Mail, options?: SendOptions): Promise<{ messageId: string }>;
    close(): void;
}

/** A pooled SMTP transport when SMTP_URL is set; otherwise each message becomes an .eml file in the outbox. */
export const createMailer = (config: Config, log: Logger): Mailer => {
    if (config.smtpUrl) {
        const { connections, sendTimeoutMs, dataTimeoutMs, retryAttempts, retryForMs, retryDelayMs } = config.smtp;
        const pool = new SmtpPool(config.smtpUrl, config.mailFrom, { maxConnections: connections, timeoutMs: sendTimeoutMs, dataTimeoutMs });
        const policy = { attempts: retryAttempts, forMs: retryForMs, delayMs: retryDelayMs };
        return {
            send: (mail, options = {}) =>
                pool.send({ from: config.mailFrom, ...mail }, { after: options.after, signal: options.signal, retry: options.retry ? policy : undefined, onTransmit: options.onTransmit, onRefused: options.onRefused }),
            close: () => pool.close()
        };
    }

    const outbox = Path.join(config.dataDir, 'outbox');
    const transport = Nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    let ready: Promise<unknown> | null = null;
    return {
        async send(mail, options) {
            ready ??= Fs.mkdir(outbox, { recursive: true });
            await ready;
            await options?.after;
            options?.signal?.throwIfAborted();
            await options?.onTransmit?.({ again: false });
            const info = await transport.sendMail(nodemailerMessage({ from: config.mailFrom, ...mail }));
            const file = Path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Crypto.randomBytes(4).toString('hex')}.eml`);
            await Fs.writeFile(file, info.message as Buffer);
            log.info({ to: mail.to, file }, 'e-mail written to the outbox (set SMTP_URL to deliver)');
            return { messageId: info.messageId };
        },
        close: () => transport.close()
    };
};
