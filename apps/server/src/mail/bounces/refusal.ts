import type { SmtpFailure } from '../smtp-errors.js';

// Which refusals say the recipient does not exist (or will never take mail), so that mailing it again
// only hurts the sender's reputation: RFC 3463 enhanced codes 5.1.x (bad address) and 5.2.1 (mailbox
// disabled); without an enhanced code, 550/551/553 at RCPT. Not suppressed: 4xx (temporary), 5.7.x
// (policy: relaying denied, blocked sender, spam) and 5.2.2/5.3.x (full, too big): those are about the
// message or the sender, and suppressing on them would empty the list after one misconfigured relay.

const ENHANCED = /(?:^|[\s(])([245])\.(\d{1,3})\.(\d{1,3})(?=$|[\s).,;:])/;

/** The RFC 3463 status code an SMTP reply text carries ("550 5.1.1 <x>: user unknown" -> "5.1.1"), or null. */
export const enhancedStatus = (text: string): string | null => {
    const match = ENHANCED.exec(text.replace(/^\d{3}[\s-]/, ' '));
    return match ? `${match[1]}.${match[2]}.${match[3]}` : null;
};

/**
 * Whether an enhanced status code says the address is bad for good. Not 5.1.7 and 5.1.8: RFC 3463
 * gives them to the sender's address (bad syntax, unknown domain), which says nothing of the recipient.
 */
export const isBadAddressStatus = (status: string): boolean => (/^5\.1\.\d+$/.test(status) && status !== '5.1.7' && status !== '5.1.8') || status === '5.2.1';

const POLICY_WORDS = /relay|auth|policy|spam|block|reputation|denied by|rejected for|rate|too many/i;

/** A nodemailer error from sending one e-mail: whether its recipient should be suppressed as `bounced`. */
export const isPermanentRecipientRefusal = (err: unknown): boolean => {
    const { code, responseCode, response, command } = (err ?? {}) as SmtpFailure & { command?: string };
    // Refused at MAIL FROM, the sender was: suppressing each recipient on it would empty the next runs.
    if (typeof responseCode !== 'number' || responseCode < 500 || responseCode >= 600 || command === 'MAIL FROM') {
        return false;
    }

    const text = typeof response === 'string' ? response : '';
    const status = enhancedStatus(text);
    if (status !== null) {
        return isBadAddressStatus(status);
    }

    // No enhanced code: only a refusal at RCPT names the recipient, and not one worded as policy.
    return code === 'EENVELOPE' && [550, 551, 553].includes(responseCode) && !POLICY_WORDS.test(text);
};
