import Crypto from 'node:crypto';

/**
 * scrypt cost. N = 2^15 with r = 8 needs 32 MiB and ~120 ms of one core here: a brute-force attempt
 * costs the same, yet a 2-core host still logs in ~15 people a second. Hashes carry their own
 * parameters (`scrypt$N$r$p$salt$hash`), so raising them later rehashes each account at its next login.
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;

const KEY_LENGTH = 32;
const SALT_BYTES = 16;

interface ScryptParams {
    N: number;
    r: number;
    p: number;
}

const derive = (password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> =>
    new Promise((resolve, reject) => {
        // maxmem must exceed 128 * N * r, or node refuses the parameters.
        const maxmem = 256 * params.N * params.r;
        Crypto.scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...params, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
    });

const format = (params: ScryptParams, salt: Buffer, hash: Buffer): string =>
    ['scrypt', params.N, params.r, params.p, salt.toString('base64'), hash.toString('base64')].join('$');

const parse = (stored: string): { params: ScryptParams; salt: Buffer; hash: Buffer } | null => {
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    const params = { N: Number(n), r: Number(r), p: Number(p) };
    if (scheme !== 'scrypt' || salt === undefined || hash === undefined || !Object.values(params).every((v) => Number.isSafeInteger(v) && v > 0)) {
        return null;
    }

    return { params, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
};

export const hashPassword = async (password: string): Promise<string> => {
    const salt = Crypto.randomBytes(SALT_BYTES);
    return format(SCRYPT_PARAMS, salt, await derive(password, salt, SCRYPT_PARAMS));
};

// A real hash of a random password, so an unknown e-mail costs the same scrypt as a known one.
let dummy: Promise<string> | null = null;

/**
 * `rehash` is true when the stored hash uses other parameters than today's. An unparseable stored
 * value (an account that has no password) never matches, after spending the same time.
 */
export const verifyPassword = async (password: string, stored: string | null): Promise<{ ok: boolean; rehash: boolean }> => {
    const parsed = stored === null ? null : parse(stored);
    if (!parsed) {
        dummy ??= hashPassword(Crypto.randomBytes(16).toString('hex'));
        await verifyPassword(password, await dummy);
        return { ok: false, rehash: false };
    }

    const actual = await derive(password, parsed.salt, parsed.params);
    const ok = actual.length === parsed.hash.length && Crypto.timingSafeEqual(actual, parsed.hash);
    const rehash = ok && (parsed.params.N !== SCRYPT_PARAMS.N || parsed.params.r !== SCRYPT_PARAMS.r || parsed.params.p !== SCRYPT_PARAMS.p);
    return { ok, rehash };
};
