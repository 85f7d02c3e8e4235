import Crypto from 'node:crypto';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Opaque: 32 random bytes. The `rt1.` prefix only tells a person (or a secret scanner) what it is;
 * the database keeps the SHA-256, so a leaked table holds no usable token. A fast hash is enough
 * here because the token has 256 bits of entropy.
 */
export const newRefreshToken = (): string => `rt1.${Crypto.randomBytes(32).toString('base64url')}`;

export const hashRefreshToken = (token: string): string => Crypto.createHash('sha256').update(token).digest('hex');
