import Crypto from 'node:crypto';
import Fs from 'node:fs/promises';
import Path from 'node:path';

import Nodemailer from 'nodemailer';
import type { Logger } from 'pino';

import type { Config } from '../config.js';

export interface Mail {
    to: string;
    subject: string;
    text: string;
}

export interface Mailer {
    /** Resolves once the transport accepted the message. */
    send(mail: Mail): Promise<{ messageId: string }>;
    close(): void;
}

/** A pooled SMTP transport when SMTP_URL is set; otherwise each message becomes an .eml file in the outbox. */
export const createMailer = (config: Config, log: Logger): Mailer => {
    if (config.smtpUrl) {
        const transport = Nodemailer.createTransport(`${config.smtpUrl}${config.smtpUrl.includes('?') ? '&' : '?'}pool=true`);
        return {
            async send(mail) {
                const info = await transport.sendMail({ from: config.mailFrom, ...mail });
                return { messageId: info.messageId };
            },
            close: () => transport.close()
        };
    }

    const outbox = Path.join(config.dataDir, 'outbox');
    const transport = Nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    let ready: Promise<unknown> | null = null;
    return {
        async send(mail) {
            ready ??= Fs.mkdir(outbox, { recursive: true });
            await ready;
            const info = await transport.sendMail({ from: config.mailFrom, ...mail });
            const file = Path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Crypto.randomBytes(4).toString('hex')}.eml`);
            await Fs.writeFile(file, info.message as Buffer);
            log.info({ to: mail.to, file }, 'e-mail written to the outbox (set SMTP_URL to deliver)');
            return { messageId: info.messageId };
        },
        close: () => transport.close()
    };
};
