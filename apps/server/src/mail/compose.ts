import Crypto from 'node:crypto';

import addressparser from 'nodemailer/lib/addressparser/index.js';
import base64 from 'nodemailer/lib/base64/index.js';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import mimeFuncs from 'nodemailer/lib/mime-funcs/index.js';
import qp from 'nodemailer/lib/qp/index.js';

// A run's OUTPUT node sends thousands of single-part text messages. Nodemailer's MailComposer builds
// each through a general MIME tree and streams, about 0.3 ms of CPU apiece; this writes the same
// headers and encodings (with nodemailer's own encoders) directly. Anything it does not cover, such
// as a non-ASCII recipient address, goes through MailComposer.

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

/** The message as nodemailer's own composer takes it (the general path and the outbox). */
export const nodemailerMessage = ({ unsubscribeUrl, envelopeFrom, messageId, ...mail }: TextMail) => ({
    ...mail,
    messageId: messageId && bracketed(messageId),
    ...(unsubscribeUrl ? { headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
    ...(envelopeFrom ? { envelope: { from: envelopeFrom, to: mail.to } } : {})
});

export interface ComposedMail {
    envelope: { from: string; to: string[] };
    messageId: string;
    raw: Buffer;
}

const NON_LATIN = /[\x00-\x08\x0B\x0C\x0E-\x1F\u0080-\uFFFF]/g;
const LATIN = /[a-z]/gi;

/** Q when most characters are Latin letters, else B: nodemailer's choice for words and bodies. */
const textEncoding = (value: string): 'Q' | 'B' => ((value.match(NON_LATIN) ?? []).length < (value.match(LATIN) ?? []).length ? 'Q' : 'B');

const encodeName = (name: string): string => {
    if (/^[\w ]*$/.test(name)) {
        return name;
    }

    return /^[\x20-\x7e]*$/.test(name) ? `"${name.replace(/([\\"])/g, '\\$1')}"` : mimeFuncs.encodeWord(name, textEncoding(name), 52);
};

const header = (key: string, value: string): string => mimeFuncs.foldLines(`${key}: ${value}`, 76);

/** Every line break becomes CRLF (SMTP allows no bare CR or LF), and non-empty content ends with one. */
const crlf = (text: string): string => {
    const lines = text.replace(/\r\n|\r|\n/g, '\r\n');
    return lines === '' || lines.endsWith('\n') ? lines : `${lines}\r\n`;
};

const body = (text: string): { encoding: string; content: string } => {
    if (mimeFuncs.isPlainText(text) && !mimeFuncs.hasLongerLines(text, 76)) {
        return { encoding: '7bit', content: crlf(text) };
    }

    return textEncoding(text) === 'Q'
        ? { encoding: 'quoted-printable', content: crlf(qp.wrap(qp.encode(text), 76)) }
        : { encoding: 'base64', content: crlf(base64.wrap(base64.encode(text), 76)) };
};

const bracketed = (id: string): string => (id.startsWith('<') ? id : `<${id}>`);

/** Composes text messages from one sender; ids are unique per process and message. */
export const textComposer = (from: string) => {
    const [sender] = addressparser(from, { flatten: true });
    if (!sender?.address) {
        throw new Error(`MAIL_FROM '${from}' is not an e-mail address`);
    }

    const fromHeader = header('From', sender.name ? `${encodeName(sender.name)} <${sender.address}>` : sender.address);
    const domain = sender.address.split('@').pop();
    const idPrefix = Crypto.randomBytes(9).toString('hex');
    let sequence = 0;

    return async (mail: TextMail): Promise<ComposedMail> => {
        // Recipients needing IDN or SMTPUTF8 handling, any sender override, and an HTML part take the general path.
        if (!/^[\x21-\x7e]+$/.test(mail.to) || mail.from !== from || mail.html !== undefined) {
            const node = new MailComposer(nodemailerMessage(mail)).compile();
            const envelope = node.getEnvelope();
            return { envelope: { from: envelope.from || sender.address, to: envelope.to }, messageId: node.messageId(), raw: await node.build() };
        }

        const messageId = mail.messageId ? bracketed(mail.messageId) : `<${idPrefix}.${(sequence++).toString(36)}@${domain}>`;
        const subject = mail.subject ? mimeFuncs.encodeWords(mail.subject, textEncoding(mail.subject), 52) : '';
        const { encoding, content } = body(mail.text);
        const lines = [
            fromHeader,
            header('To', mail.to),
            ...(subject ? [header('Subject', subject)] : []),
            header('Message-ID', messageId),
            // The link is ASCII (base64url token on PUBLIC_URL); folded like any header.
            ...(mail.unsubscribeUrl ? [header('List-Unsubscribe', `<${mail.unsubscribeUrl}>`), 'List-Unsubscribe-Post: List-Unsubscribe=One-Click'] : []),
            header('Date', new Date().toUTCString().replace(/GMT/, '+0000')),
            'MIME-Version: 1.0',
            `Content-Type: text/plain${/[\u0080-\uFFFF]/.test(mail.text) ? '; charset=utf-8' : ''}`,
            `Content-Transfer-Encoding: ${encoding}`
        ];
        return { envelope: { from: mail.envelopeFrom ?? sender.address, to: [mail.to] }, messageId, raw: Buffer.from(`${lines.join('\r\n')}\r\n\r\n${content}`) };
    };
};

/** The domain of MAIL_FROM's address, the right-hand side of the Message-IDs this server makes. */
export const senderDomain = (from: string): string => addressparser(from, { flatten: true })[0]?.address?.split('@').pop() || 'localhost';

/** A node id as a Message-ID atom: kept when it is one, else '=' and its base64url (never equal to a kept one). */
const atom = (value: string): string => (/^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : `=${Buffer.from(value).toString('base64url')}`);

/** The Message-ID of element `index` of an OUTPUT node in a run: the same on every attempt. */
export const deliveryMessageId = (runId: string, nodeId: string, index: number, domain: string): string => `<${atom(runId)}.${atom(nodeId)}.${index}@${domain}>`;
