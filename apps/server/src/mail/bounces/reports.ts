// Reading the two machine-readable reports a mailbox provider sends back: RFC 3464 delivery status
// notifications (bounces) and RFC 5965 feedback reports (complaints, "this is spam"). Both are
// multipart/report messages whose parts are plain header blocks; the split is done here, by hand,
// because mailparser folds message/delivery-status into the text body. Anything that is not such a
// report reads as null: the receiver then changes nothing.

export type ReportKind = 'bounced' | 'complained';

export interface Report {
    kind: ReportKind;
    /** The recipients the report is about (for a bounce: only those that failed for good). */
    recipients: string[];
    /** Envelope senders the report quotes (the original's Return-Path): where a VERP token may be. */
    returnPaths: string[];
}

type Fields = Array<[string, string]>;

/** A header block as name/value pairs (names lower-cased), continuation lines unfolded. */
const fields = (block: string): Fields =>
    block
        .replace(/\r?\n[ \t]+/g, ' ')
        .split(/\r?\n/)
        .flatMap((line): Fields => {
            const colon = line.indexOf(':');
            return colon > 0 ? [[line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]] : [];
        });

const field = (list: Fields, name: string): string | undefined => list.find(([key]) => key === name)?.[1];
const all = (list: Fields, name: string): string[] => list.filter(([key]) => key === name).map(([, value]) => value);

/** `name=value` or `name="value"` of a Content-Type. */
const param = (contentType: string, name: string): string | undefined => new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(contentType)?.slice(1).find((v) => v !== undefined);

const splitHead = (text: string): { head: string; body: string } => {
    const at = /\r?\n\r?\n/.exec(text);
    return at ? { head: text.slice(0, at.index), body: text.slice(at.index + at[0].length) } : { head: text, body: '' };
};

/** `rfc822; <a@b>` or `<a@b>` as `a@b`. */
const address = (value: string): string => {
    const bare = value.includes(';') ? value.slice(value.indexOf(';') + 1) : value;
    return bare.trim().replace(/^<|>$/g, '').trim();
};

interface Part {
    type: string;
    head: Fields;
    body: string;
}

const parts = (body: string, boundary: string): Part[] => {
    const delimiter = `--${boundary}`;
    const out: Part[] = [];
    const pieces = body.split(new RegExp(`(?:^|\\r?\\n)${delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?[ \\t]*(?:\\r?\\n|$)`));
    // The text before the first delimiter is the preamble; after the closing one, the epilogue.
    for (const piece of pieces.slice(1)) {
        const { head, body: content } = splitHead(piece);
        const headers = fields(head);
        out.push({ type: (field(headers, 'content-type') ?? 'text/plain').split(';')[0]!.trim().toLowerCase(), head: headers, body: content });
    }

    return out;
};

/** Status codes of a failed recipient that say nothing about the address: policy (5.7.x), mailbox full, message too big. */
const NOT_ABOUT_ADDRESS = /^5\.(7\.\d+|2\.2|3\.4)$/;

const deliveryFailures = (text: string): string[] => {
    // Per-message fields, then one block per recipient, separated by blank lines.
    const blocks = text.split(/\r?\n[ \t]*\r?\n/).slice(1).map(fields);
    return blocks.flatMap((block) => {
        const action = field(block, 'action')?.toLowerCase();
        const status = field(block, 'status')?.trim() ?? '';
        const recipient = field(block, 'final-recipient') ?? field(block, 'original-recipient');
        if (action !== 'failed' || !recipient || !/^5\.\d{1,3}\.\d{1,3}$/.test(status) || NOT_ABOUT_ADDRESS.test(status)) {
            return [];
        }

        return [address(recipient)];
    });
};

export const readReport = (raw: string): Report | null => {
    const { head, body } = splitHead(raw);
    const contentType = field(fields(head), 'content-type') ?? '';
    const boundary = param(contentType, 'boundary');
    if (!/^multipart\/report\b/i.test(contentType) || !boundary) {
        return null;
    }

    const sections = parts(body, boundary);
    const original = sections.find((p) => p.type === 'message/rfc822' || p.type === 'text/rfc822-headers' || p.type === 'message/global-headers');
    const originalHead = original ? fields(splitHead(original.body).head) : [];
    const returnPaths = all(originalHead, 'return-path').map(address);

    const status = sections.find((p) => p.type === 'message/delivery-status' || p.type === 'message/global-delivery-status');
    if (status) {
        return { kind: 'bounced', recipients: deliveryFailures(status.body), returnPaths };
    }

    const feedback = sections.find((p) => p.type === 'message/feedback-report');
    if (feedback) {
        const report = fields(feedback.body);
        const named = all(report, 'original-rcpt-to').map(address);
        // Providers that redact the recipient leave it out; the original's To then names it, if kept.
        const recipients = named.length > 0 ? named : all(originalHead, 'to').map(address);
        return { kind: 'complained', recipients, returnPaths: [...all(report, 'original-mail-from').map(address), ...returnPaths] };
    }

    return null;
};
