/**
 * Pino redaction: whatever object a log line carries, these fields never reach the output. The code
 * does not log secrets in the first place; this is the net under it (a whole payload or an error
 * carrying one logged by mistake). pino's `*` matches one level, hence each depth listed.
 */
const SECRET_FIELDS = ['password', 'otp', 'accessToken', 'refreshToken', 'token', 'apiKey', 'authorization', 'cookie', 'jwtSecret', 'encryptionKey'];

export const REDACT_PATHS: string[] = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]);
