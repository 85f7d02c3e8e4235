import Crypto from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Opaque, prefixed ids (`wf_3k9…`) so a pasted id says what it is. 20 chars of base36 ≈ 103 bits. */
export const newId = (prefix: 'acct' | 'upl' | 'wf' | 'run' | 'rt' | 'tok'): string => {
    const bytes = Crypto.randomBytes(20);
    let out = `${prefix}_`;
    for (const byte of bytes) {
        out += ALPHABET[byte % 36];
    }

    return out;
};
