import Crypto from 'node:crypto';

/**
 * Pino redaction: whatever object a log line carries, these fields never reach the output. The code
 * does not log secrets in the first place; this is the net under it (a whole payload or an error
 * carrying one logged by mistake). pino's `*` matches one level, hence each depth listed.
 */
const SECRET_FIELDS = ['password', 'otp', 'accessToken', 'refreshToken', 'token', 'apiKey', 'authorization', 'cookie', 'jwtSecret', 'encryptionKey'];

export const REDACT_PATHS: string[] = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]);

/**
 * A path as logged: a secret in it is replaced by the start of its SHA-256 (enough to match log lines
 * of the same one): a hook id (POST /api/hooks/{hookId} starts runs) and an unsubscribe token (/u/{token}
 * unsubscribes its recipient: a log reader must not be able to).
 */
export const loggedPath = (path: string): string => {
    const secret = /^\/(?:api\/hooks|u)\/([^/]+)/.exec(path);
    if (!secret) {
        return path;
    }

    let id = secret[1]!;
    try {
        id = decodeURIComponent(id);
    } catch {
        // Logged as sent.
    }

    const prefix = secret[0].slice(0, secret[0].length - secret[1]!.length);
    return `${prefix}sha256:${Crypto.createHash('sha256').update(id).digest('hex').slice(0, 16)}${path.slice(secret[0].length)}`;
};
