import { Counter, Histogram, type Registry } from 'prom-client';

// What an operator watches while a run sends: e-mails by outcome, the relay's replies by class, and
// how long a send takes (from asking for a connection to the relay's 250, retries and waits for the
// relay included). Outcomes: sent; refused (a 5xx: the relay's final word); failed (temporary
// failures past SMTP_RETRY_*, or the relay down past SMTP_RETRY_FOR_MS: retryable); suppressed (an
// address on the account's suppression list: not sent); possibly_duplicated (sent again after a copy
// went unanswered, counted when the run ends).

export type EmailOutcome = 'sent' | 'refused' | 'failed' | 'suppressed' | 'possibly_duplicated';

export interface MailMetrics {
    emails: Counter<'outcome'>;
    smtpReplies: Counter<'class'>;
    sendSeconds: Histogram;
}

export const createMailMetrics = (registry: Registry): MailMetrics => {
    const emails = new Counter({ name: 'flowctl_emails_total', help: 'E-mails of OUTPUT nodes by outcome', labelNames: ['outcome'], registers: [registry] });
    for (const outcome of ['sent', 'refused', 'failed', 'suppressed', 'possibly_duplicated'] satisfies EmailOutcome[]) {
        emails.inc({ outcome }, 0);
    }

    const smtpReplies = new Counter({
        name: 'flowctl_smtp_replies_total',
        help: "SMTP relay's answers to each attempt, by class (2xx, 4xx, 5xx; none: no answer, the connection failed)",
        labelNames: ['class'],
        registers: [registry]
    });
    for (const reply of ['2xx', '4xx', '5xx', 'none']) {
        smtpReplies.inc({ class: reply }, 0);
    }

    return {
        emails,
        smtpReplies,
        sendSeconds: new Histogram({
            name: 'flowctl_email_send_seconds',
            help: 'From asking for a connection to the relay accepting an e-mail, retries and waits for the relay included',
            buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 120, 600],
            registers: [registry]
        })
    };
};
