import Crypto from 'node:crypto';

// The `{token}` of `{PUBLIC_URL}/u/{token}` (issue 29). It carries account, recipient address and
// workflow, so the server keeps no row per e-mail sent and a link works for as long as the account
// does (it does not expire). It must be unforgeable and must not show the address or the ids to
// whoever reads the link (a forwarded e-mail, a proxy's log), so the triple is encrypted with a
// deterministic authenticated scheme, SIV built from standard parts (RFC 5297's construction with
// HMAC-SHA-256 as its PRF): the IV is the MAC of the plaintext, and the plaintext is AES-256-CTR under
// that IV. The same triple always gives the same token, and a token whose MAC does not match what it
// decrypts to is refused. Its keys are derived (HKDF) from ENCRYPTION_KEY, so every process that shares
// that key reads every link; changing ENCRYPTION_KEY makes earlier links answer 404.

export interface UnsubscribeSubject {
    accountId: string;
    workflowId: string;
    /** The address as the e-mail was sent to it. */
    email: string;
}

const VERSION = 1;
const IV_BYTES = 16;
/** Ids are ~25 characters and an address at most 254: anything much longer is no token of ours. */
export const MAX_TOKEN_LENGTH = 600;

export interface TokenKeys {
    enc: Buffer;
    mac: Buffer;
}

export const unsubscribeKeys = (encryptionKey: Buffer): TokenKeys => {
    const okm = Buffer.from(Crypto.hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'flowctl unsubscribe token v1', 64));
    return { enc: okm.subarray(0, 32), mac: okm.subarray(32) };
};

const encode = ({ accountId, workflowId, email }: UnsubscribeSubject): Buffer => {
    const account = Buffer.from(accountId, 'utf8');
    const workflow = Buffer.from(workflowId, 'utf8');
    if (account.length > 255 || workflow.length > 255) {
        throw new Error('account and workflow ids must be at most 255 bytes');
    }

    return Buffer.concat([Buffer.from([account.length]), account, Buffer.from([workflow.length]), workflow, Buffer.from(email, 'utf8')]);
};

const decode = (plain: Buffer): UnsubscribeSubject | null => {
    const accountLength = plain[0];
    if (accountLength === undefined) {
        return null;
    }

    const workflowAt = 1 + accountLength;
    const workflowLength = plain[workflowAt];
    if (workflowLength === undefined) {
        return null;
    }

    const emailAt = workflowAt + 1 + workflowLength;
    if (emailAt >= plain.length) {
        return null;
    }

    return {
        accountId: plain.subarray(1, workflowAt).toString('utf8'),
        workflowId: plain.subarray(workflowAt + 1, emailAt).toString('utf8'),
        email: plain.subarray(emailAt).toString('utf8')
    };
};

const siv = (keys: TokenKeys, plain: Buffer): Buffer => Crypto.createHmac('sha256', keys.mac).update(Buffer.from([VERSION])).update(plain).digest().subarray(0, IV_BYTES);

const ctr = (keys: TokenKeys, iv: Buffer, data: Buffer): Buffer => {
    const cipher = Crypto.createCipheriv('aes-256-ctr', keys.enc, iv);
    return Buffer.concat([cipher.update(data), cipher.final()]);
};

/** URL-safe base64 of version, IV and ciphertext. */
export const sealUnsubscribeToken = (keys: TokenKeys, subject: UnsubscribeSubject): string => {
    const plain = encode(subject);
    const iv = siv(keys, plain);
    return Buffer.concat([Buffer.from([VERSION]), iv, ctr(keys, iv, plain)]).toString('base64url');
};

/** The triple a token names, or null for anything this server did not make (a changed character included). */
export const openUnsubscribeToken = (keys: TokenKeys, token: string): UnsubscribeSubject | null => {
    if (token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) {
        return null;
    }

    const raw = Buffer.from(token, 'base64url');
    // base64url's last character can carry unused bits: a token must be the one encoding of its bytes.
    if (raw.toString('base64url') !== token || raw.length <= 1 + IV_BYTES || raw[0] !== VERSION) {
        return null;
    }

    const iv = raw.subarray(1, 1 + IV_BYTES);
    const plain = ctr(keys, iv, raw.subarray(1 + IV_BYTES));
    if (!Crypto.timingSafeEqual(iv, siv(keys, plain))) {
        return null;
    }

    return decode(plain);
};
