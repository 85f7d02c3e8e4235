import Crypto from 'node:crypto';

import { suppressionKey } from '@flowctl/engine';
import addressparser from 'nodemailer/lib/addressparser/index.js';

import type { Config } from '../../config.js';

// VERP (variable envelope return path): each e-mail's envelope sender (its Return-Path) names the
// account and, through a MAC, the recipient: `bounces+<accountId>.<mac>@bounce.example.com`. A bounce
// comes back to that address, so the bounce receiver knows whose list to change, and the MAC (of the
// account and the recipient the report names) makes sure a report can only suppress the address that
// was mailed, and only for the account that mailed it. Lower-case hex: some servers lower-case local parts.

const MAC_HEX = 20;

const verpKey = (encryptionKey: Buffer): Buffer => Buffer.from(Crypto.hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'flowctl verp v1', 32));

const mac = (key: Buffer, accountId: string, recipient: string): string =>
    Crypto.createHmac('sha256', key).update(`${accountId}\n${suppressionKey(recipient)}`).digest('hex').slice(0, MAC_HEX);

/** BOUNCE_ADDRESS, else MAIL_FROM's address: the mailbox whose `+` tags carry the tokens. */
export const bounceBase = (config: Config): string | null => {
    if (config.bounce.address) {
        return config.bounce.address;
    }

    return addressparser(config.mailFrom, { flatten: true })[0]?.address ?? null;
};

/**
 * The envelope sender for an e-mail to `to` from the account; undefined when no bounce receiver is
 * configured (BOUNCE_SMTP_PORT or BOUNCE_ADDRESS): then MAIL_FROM is the envelope sender, as before.
 */
export const returnPathFor = (config: Config, encryptionKey: Buffer, accountId: string, to: string): string | undefined => {
    if (config.bounce.smtpPort === null && !config.bounce.address) {
        return undefined;
    }

    const base = bounceBase(config);
    const at = base?.lastIndexOf('@') ?? -1;
    if (!base || at < 1) {
        return undefined;
    }

    return `${base.slice(0, at)}+${accountId}.${mac(verpKey(encryptionKey), accountId, to)}${base.slice(at)}`;
};

/** The account a VERP address names, if its token is one of ours, to be checked against a recipient with verifies(). */
export interface VerpToken {
    accountId: string;
    /** Whether the report's recipient is the one this token was made for. */
    verifies(recipient: string): boolean;
}

export const readVerp = (encryptionKey: Buffer, address: string): VerpToken | null => {
    const at = address.lastIndexOf('@');
    const local = at < 0 ? address : address.slice(0, at);
    const match = /\+([a-z0-9_]{1,100})\.([0-9a-f]+)$/i.exec(local);
    if (!match || match[2]!.length !== MAC_HEX) {
        return null;
    }

    const accountId = match[1]!.toLowerCase();
    const given = Buffer.from(match[2]!.toLowerCase(), 'utf8');
    const key = verpKey(encryptionKey);
    return {
        accountId,
        verifies: (recipient) => Crypto.timingSafeEqual(given, Buffer.from(mac(key, accountId, recipient), 'utf8'))
    };
};
