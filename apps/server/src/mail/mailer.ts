import Crypto from 'node:crypto';
import Fs from 'node:fs/promises';
import Path from 'node:path';

import type { Logger } from 'pino';

import type { Config } from '../config.js';
import { textComposer } from './compose.js';
import { heloName } from './helo.js';
import type { RelaySnapshot, RelayState } from './relay-state.js';
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
     * When the caller's batch (a run) began sending. Past SMTP_RETRY_FOR_MS of relay outage, its
     * messages fail at once only if the relay failed after this; a batch begun later probes it first.
     */
    startedAt?: number;
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
    /** Whether the SMTP relay takes mail (absent with the outbox). */
    relay?: RelayState;
    close(): void;
}

/** The relay's URL without its password, for logs. */
const redactedUrl = (url: string): string => {
    try {
        const parsed = new URL(url);
        parsed.password = parsed.password ? '***' : '';
        return parsed.toString();
    } catch {
        return 'SMTP_URL';
    }
};

/** A pooled SMTP transport when SMTP_URL is set; otherwise each message becomes an .eml file in the outbox. */
export const createMailer = (config: Config, log: Logger): Mailer => {
    if (config.smtpUrl) {
        const { connections, sendTimeoutMs, dataTimeoutMs, retryAttempts, retryForMs, retryDelayMs } = config.smtp;
        const name = heloName(config.smtp.heloName ?? null, config.mailFrom);
        const relay = { giveUpMs: retryForMs, probeDelayMs: retryDelayMs };
        const pool = new SmtpPool(config.smtpUrl, config.mailFrom, { maxConnections: connections, timeoutMs: sendTimeoutMs, dataTimeoutMs, name, relay });
        const policy = { attempts: retryAttempts, forMs: retryForMs, delayMs: retryDelayMs };
        // One line per change of the relay's state, not one per message held up by it.
        pool.relay.on('change', (state: RelaySnapshot & { downForMs?: number }) => {
            if (state.condition === 'down') {
                log.warn({ relay: redactedUrl(config.smtpUrl as string), lastReply: state.lastReply }, 'mail relay down: sending is paused and probed with backoff');
            } else {
                log.warn({ relay: redactedUrl(config.smtpUrl as string), lastReply: state.lastReply, downForMs: state.downForMs }, 'mail relay back: sending resumes');
            }
        });
        return {
            relay: pool.relay,
            send: (mail, options = {}) =>
                pool.send(
                    { from: config.mailFrom, ...mail },
                    {
                        after: options.after,
                        signal: options.signal,
                        retry: options.retry ? policy : undefined,
                        onTransmit: options.onTransmit,
                        onRefused: options.onRefused,
                        startedAt: options.startedAt
                    }
                ),
            close: () => pool.close()
        };
    }

    // The outbox file holds the very bytes a relay would be sent (CRLF line ends throughout, as an
    // .eml is read): nodemailer's stream transport wrote CRLF headers over LF bodies.
    const outbox = Path.join(config.dataDir, 'outbox');
    const compose = textComposer(config.mailFrom);
    let ready: Promise<unknown> | null = null;
    return {
        async send(mail, options) {
            ready ??= Fs.mkdir(outbox, { recursive: true });
            await ready;
            await options?.after;
            options?.signal?.throwIfAborted();
            await options?.onTransmit?.({ again: false });
            const { messageId, raw } = await compose({ from: config.mailFrom, ...mail });
            const file = Path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Crypto.randomBytes(4).toString('hex')}.eml`);
            await Fs.writeFile(file, raw);
            log.info({ to: mail.to, file }, 'e-mail written to the outbox (set SMTP_URL to deliver)');
            return { messageId };
        },
        close: () => {}
    };
};
