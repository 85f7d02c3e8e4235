import Crypto from 'node:crypto';

/**
 * Pino redaction: whatever object a log line carries, these fields never reach the output. The code
 * does not log secrets in the first place; this is the net under it (a whole payload or an error
 * carrying one logged by mistake). pino's `*` matches one level, hence each depth listed.
 */
const SECRET_FIELDS = ['password', 'otp', 'accessToken', 'refreshToken', 'token', 'apiKey', 'authorization', 'cookie', 'jwtSecret', 'encryptionKey'];

export const REDACT_PATHS: string[] = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]);

/** A path as logged: a hook id (a secret, POST /api/hooks/{hookId}) is replaced by the start of its SHA-256. */
export const loggedPath = (path: string): string => {
    const hook = /^\/api\/hooks\/([^/]+)/.exec(path);
    if (!hook) {
        return path;
    }

    let id = hook[1]!;
    try {
        id = decodeURIComponent(id);
    } catch {
        // Logged as sent.
    }

    return `/api/hooks/sha256:${Crypto.createHash('sha256').update(id).digest('hex').slice(0, 16)}${path.slice(hook[0].length)}`;
};
