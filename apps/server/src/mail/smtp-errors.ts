// Which SMTP failures are worth trying again. A 4xx reply says so by definition (RFC 5321 4.2.1), and
// a connection that failed or closed may work on the next try; a 5xx reply is the server's final
// word on that message, and anything else (a closed mailer, a cancelled run, our own data stream
// failing) is not the server's to change.

export interface SmtpFailure {
    code?: string;
    responseCode?: number;
    response?: string;
}

const CONNECTION_CODES = new Set([
    'ECONNECTION',
    'ETIMEDOUT',
    'ESOCKET',
    'EDNS',
    'ECONNREFUSED',
    'ECONNRESET',
    'EPIPE',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'EAI_AGAIN'
]);

export const isTemporary = (err: unknown): boolean => {
    const { code, responseCode } = (err ?? {}) as SmtpFailure;
    if (typeof responseCode === 'number') {
        return responseCode >= 400 && responseCode < 500;
    }

    return code !== undefined && CONNECTION_CODES.has(code);
};

/** The server answered with an error reply but the connection itself is fine: RSET and it can be used again. */
export const isReply = (err: unknown): boolean => {
    const { code, responseCode } = (err ?? {}) as SmtpFailure;
    return typeof responseCode === 'number' && (code === 'EENVELOPE' || code === 'EMESSAGE');
};

/** An error shaped like nodemailer's, so isTemporary reads it the same way. */
export const smtpError = (message: string, code: string): Error & SmtpFailure => Object.assign(new Error(message), { code });
