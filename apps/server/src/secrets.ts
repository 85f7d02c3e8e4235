import Crypto from 'node:crypto';
import Fs from 'node:fs/promises';
import Path from 'node:path';

import type { Config } from './config.js';

export interface Secrets {
    jwtSecret: string;
    /** 32 bytes for AES-256-GCM. */
    encryptionKey: Buffer;
}

const parseKey = (raw: string): Buffer => {
    const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) {
        throw new Error('ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64 (try: openssl rand -base64 32)');
    }

    return key;
};

/**
 * Secrets come from the environment, or are generated on first start and kept (mode 0600) in the
 * data directory so tokens and encrypted settings survive restarts. Several machines sharing one
 * DATABASE_URL must be given the same JWT_SECRET and ENCRYPTION_KEY.
 */
export const loadSecrets = async (config: Config): Promise<Secrets> => {
    const file = Path.join(config.dataDir, 'secrets.json');
    let stored: { jwtSecret?: string; encryptionKey?: string } = {};
    try {
        stored = JSON.parse(await Fs.readFile(file, 'utf8'));
    } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
            throw new Error(`Cannot read ${file}: ${(err as Error).message}`);
        }
    }

    const next = {
        jwtSecret: stored.jwtSecret ?? Crypto.randomBytes(48).toString('base64'),
        encryptionKey: stored.encryptionKey ?? Crypto.randomBytes(32).toString('base64')
    };

    if (next.jwtSecret !== stored.jwtSecret || next.encryptionKey !== stored.encryptionKey) {
        await Fs.mkdir(config.dataDir, { recursive: true });
        await Fs.writeFile(file, JSON.stringify(next, null, 2), { mode: 0o600 });
    }

    return {
        jwtSecret: config.jwtSecret ?? next.jwtSecret,
        encryptionKey: parseKey(config.encryptionKey ?? next.encryptionKey)
    };
};

/** AES-256-GCM; the output carries a version, the IV and the tag: `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export const encrypt = (key: Buffer, plaintext: string): string => {
    const iv = Crypto.randomBytes(12);
    const cipher = Crypto.createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
};

export const decrypt = (key: Buffer, sealed: string): string => {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || tag === undefined || data === undefined) {
        throw new Error('Unrecognised encrypted value');
    }

    const decipher = Crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
};
