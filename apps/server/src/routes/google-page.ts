import type { LinkOutcome } from '../services/google.js';

const escapeHtml = (text: string): string =>
    text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

const CONNECT = 'GET /api/integrations/google/connect';

const explain = (outcome: LinkOutcome): { status: number; title: string; text: string } => {
    if (outcome.linked) {
        return { status: 200, title: 'Google account linked', text: `flowctl can now read the Google Drive files of ${outcome.email}. You can close this window.` };
    }

    switch (outcome.reason) {
        case 'denied':
            return { status: 403, title: 'Google account not linked', text: `Consent was not given at Google. To link the account, start again with ${CONNECT}.` };
        case 'expired':
            return {
                status: 400,
                title: 'This link has expired',
                text: `The sign-in was started more than 10 minutes ago, or this page was already used. Start again with ${CONNECT}.`
            };
        case 'exchange-failed':
            return {
                status: 502,
                title: 'Google account not linked',
                text: `Google did not accept the sign-in${outcome.detail ? ` (${outcome.detail})` : ''}. Start again with ${CONNECT}.`
            };
        case 'not-configured':
            return { status: 503, title: 'Google is not configured', text: 'This server has no Google OAuth client: ask its operator to set one up.' };
        default:
            return { status: 400, title: 'Google account not linked', text: `This sign-in link is not valid. Start again with ${CONNECT}.` };
    }
};

/** The small page a browser lands on after Google's consent: it says whether the link is done, or why not. */
export const linkPage = (outcome: LinkOutcome): { status: number; html: string } => {
    const { status, title, text } = explain(outcome);
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · flowctl</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>
`;
    return { status, html };
};
