import Os from 'node:os';

import { senderDomain } from './compose.js';

// The name this server gives in EHLO. nodemailer's default is the host name when it holds a dot,
// else the literal `[127.0.0.1]`: a relay checking HELO names (Postfix's reject_non_fqdn_helo_hostname,
// spam scores) then sees a machine that cannot tell who it is. SMTP_HELO_NAME names it; without it,
// the MAIL_FROM domain when it is a domain, else the host's name when it is fully qualified.

const qualified = (name: string): boolean => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(name) && name !== 'localhost';

export const heloName = (configured: string | null, mailFrom: string, hostname = Os.hostname()): string => {
    if (configured) {
        return configured;
    }

    const domain = senderDomain(mailFrom);
    if (qualified(domain)) {
        return domain;
    }

    return qualified(hostname) ? hostname : domain;
};
