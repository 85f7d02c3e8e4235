import type { Mail } from '../mail/mailer.js';
import type { PreviewEmail } from './preview.js';

// A test send (POST …/preview with sendTestTo: "me") mails the caller the e-mails a run would send.
// Rendered for the row, they hold the row recipient's unsubscribe link ({{unsubscribeUrl}}): clicked
// in the test e-mail, it would unsubscribe a real recipient. The test e-mail carries instead, wherever
// the row's link appears, a link for the caller's own address; the preview's answer keeps the e-mails
// exactly as a run renders them.

/** The row's unsubscribe link of each e-mail a preview shows, kept out of the answer. */
const rowLinks = new WeakMap<PreviewEmail, string>();

export const rememberRowLink = (email: PreviewEmail, link: string | undefined): PreviewEmail => {
    if (link) {
        rowLinks.set(email, link);
    }

    return email;
};

/** As output.ts escapes a value placed in an HTML part. */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] as string);

const swap = (text: string, from: string, to: string): string => text.split(from).join(to);

/**
 * The test e-mail of one shown e-mail, to `me`: the row's link replaced by `myLink` (the caller's own,
 * or none when the server makes no links), in the text, the HTML (as rendered there, escaped) and
 * List-Unsubscribe.
 */
export const testMail = (email: PreviewEmail, me: string, subject: string, myLink: string | undefined): Mail => {
    const rowLink = rowLinks.get(email);
    const replace = (text: string, encode: (value: string) => string = (value) => value) =>
        rowLink === undefined ? text : swap(swap(text, encode(rowLink), encode(myLink ?? '')), rowLink, myLink ?? '');
    return {
        to: me,
        subject,
        text: replace(email.text),
        ...(email.html === undefined ? {} : { html: replace(email.html, escapeHtml) }),
        ...(rowLink !== undefined && myLink ? { unsubscribeUrl: myLink } : {})
    };
};
