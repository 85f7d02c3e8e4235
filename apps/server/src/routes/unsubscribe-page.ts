// The pages of GET and POST /u/{token}: plain HTML and a form, no script, no cookie, no external
// resource, so they work in any browser and say nothing to third parties.

const escapeHtml = (text: string): string =>
    text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

const page = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}button{font:inherit;padding:.5rem 1.2rem;cursor:pointer}</style>
</head><body>${body}</body></html>
`;

/** One button that POSTs the RFC 8058 body, as a mail provider's one-click does. */
export const confirmPage = (target: { maskedEmail: string; sender: string }): string =>
    page(
        'Unsubscribe',
        `<h1>Unsubscribe</h1>
<p>Stop e-mails from <strong>${escapeHtml(target.sender)}</strong> to <strong>${escapeHtml(target.maskedEmail)}</strong>?</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`
    );

export const donePage = (): string =>
    page('Unsubscribed', '<h1>You are unsubscribed</h1><p>This address will not receive these e-mails again. You can close this window.</p>');

export const errorPage = (title: string, text: string): string => page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
