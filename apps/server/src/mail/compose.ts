import Crypto from 'node:crypto';

import addressparser from 'nodemailer/lib/addressparser/index.js';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';

import { addressHeader, textHeader } from './headers.js';
import { textBody as body } from './transfer-encoding.js';

// A run's OUTPUT node sends thousands of single-part text messages. Nodemailer's MailComposer builds
// each through a general MIME tree and streams, about 0.3 ms of CPU apiece; this writes the same
// headers and encodings directly: headers as relays expect them (headers.ts), bodies that no hop alters
// (transfer-encoding.ts). A recipient needing IDN or SMTPUTF8 handling, or another sender, takes
// MailComposer's envelope; the message itself is written here all the same.

export interface TextMail {
    from: string;
    to: string;
    subject: string;
    text: string;
    /** A Message-ID chosen by the caller (with or without its angle brackets); otherwise one is made up. */
    messageId?: string;
    /** An HTML part: the message is then multipart/alternative with `text` as its text part. */
    html?: string;
    /** One-click unsubscribe link (RFC 2369, RFC 8058): List-Unsubscribe and List-Unsubscribe-Post. */
    unsubscribeUrl?: string;
    /** The envelope sender (Return-Path) when not the From address: a VERP address for bounces. */
    envelopeFrom?: string;
}

export interface ComposedMail {
    envelope: { from: string; to: string[] };
    messageId: string;
    raw: Buffer;
}

const bracketed = (id: string): string => (id.startsWith('<') ? id : `<${id}>`);

/** A part's Content-Type and Content-Transfer-Encoding headers, and its encoded content. */
const part = (type: 'plain' | 'html', text: string): { headers: string[]; content: string } => {
    const { encoding, content } = body(text);
    const charset = type === 'html' || /[\u0080-\uFFFF]/.test(text) ? '; charset=utf-8' : '';
    return { headers: [`Content-Type: text/${type}${charset}`, `Content-Transfer-Encoding: ${encoding}`], content };
};

/** Composes text messages from one sender; ids are unique per process and message. */
export const textComposer = (from: string) => {
    const [sender] = addressparser(from, { flatten: true });
    if (!sender?.address) {
        throw new Error(`MAIL_FROM '${from}' is not an e-mail address`);
    }

    const fromHeader = addressHeader('From', sender.address, sender.name);
    const domain = sender.address.split('@').pop();
    const idPrefix = Crypto.randomBytes(9).toString('hex');
    let sequence = 0;

    return async (mail: TextMail): Promise<ComposedMail> => {
        // Recipients needing IDN or SMTPUTF8 handling, and any sender override, take MailComposer's envelope.
        let envelope = { from: mail.envelopeFrom ?? sender.address, to: [mail.to] };
        let fromLine = fromHeader;
        if (!/^[\x21-\x7e]+$/.test(mail.to) || mail.from !== from) {
            const general = new MailComposer({ from: mail.from, to: mail.to }).compile().getEnvelope();
            const [other] = addressparser(mail.from, { flatten: true });
            envelope = { from: mail.envelopeFrom ?? (general.from || sender.address), to: general.to };
            fromLine = other?.address ? addressHeader('From', other.address, other.name) : fromHeader;
        }

        const messageId = mail.messageId ? bracketed(mail.messageId) : `<${idPrefix}.${(sequence++).toString(36)}@${domain}>`;
        const text = part('plain', mail.text);
        const lines = [
            fromLine,
            addressHeader('To', envelope.to.join(', ')),
            ...(mail.subject ? [textHeader('Subject', mail.subject)] : []),
            `Message-ID: ${messageId}`,
            // The link is ASCII (a base64url token on PUBLIC_URL), a structured header: folded at no
            // point inside the brackets, and short enough (about 150 characters) to stay under 998.
            ...(mail.unsubscribeUrl ? [`List-Unsubscribe: <${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click'] : []),
            `Date: ${new Date().toUTCString().replace(/GMT/, '+0000')}`,
            'MIME-Version: 1.0'
        ];
        let content: string;
        if (mail.html === undefined) {
            lines.push(...text.headers);
            content = text.content;
        } else {
            // multipart/alternative: the text part first, the part a reader prefers (HTML) last (RFC 2046 §5.1.4).
            const boundary = `--_flowctl_${Crypto.randomBytes(12).toString('hex')}`;
            const html = part('html', mail.html);
            lines.push(`Content-Type: multipart/alternative; boundary="${boundary}"`);
            content = [`--${boundary}`, ...text.headers, '', text.content, `--${boundary}`, ...html.headers, '', html.content, `--${boundary}--`, ''].join('\r\n');
        }

        return { envelope, messageId, raw: Buffer.from(`${lines.join('\r\n')}\r\n\r\n${content}`) };
    };
};

/** The domain of MAIL_FROM's address, the right-hand side of the Message-IDs this server makes. */
export const senderDomain = (from: string): string => addressparser(from, { flatten: true })[0]?.address?.split('@').pop() || 'localhost';

/**
 * A node id as a Message-ID atom: kept when it is one, else '=' and its base64url (never equal to a
 * kept one), or '+' and a hash of it when that would be long: a Message-ID line stays far below 998 bytes.
 */
const atom = (value: string): string => {
    if (/^[A-Za-z0-9_-]{1,64}$/.test(value)) {
        return value;
    }

    const encoded = Buffer.from(value).toString('base64url');
    return encoded.length <= 120 ? `=${encoded}` : `+${Crypto.createHash('sha256').update(value).digest('base64url')}`;
};

/** The Message-ID of element `index` of an OUTPUT node in a run: the same on every attempt. */
export const deliveryMessageId = (runId: string, nodeId: string, index: number, domain: string): string => `<${atom(runId)}.${atom(nodeId)}.${index}@${domain}>`;
