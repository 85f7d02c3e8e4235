import base64 from 'nodemailer/lib/base64/index.js';
import mimeFuncs from 'nodemailer/lib/mime-funcs/index.js';
import qp from 'nodemailer/lib/qp/index.js';

import { textEncoding } from './headers.js';

// A text body's Content-Transfer-Encoding. Sent as it is when it is short-lined ASCII that no hop can
// alter; otherwise quoted-printable (mostly Latin text) or base64. A line starting with "From " is
// rewritten to ">From " by an mbox delivery, and one starting with "." is one that a careless hop may
// un-stuff: careful mailers send both in quoted-printable with that first character encoded
// (=46rom, =2E), which this does, also for the lines that soft line breaks start.

/** Every line break becomes CRLF (SMTP allows no bare CR or LF), and non-empty content ends with one. */
export const crlf = (text: string): string => {
    const lines = text.replace(/\r\n|\r|\n/g, '\r\n');
    return lines === '' || lines.endsWith('\n') ? lines : `${lines}\r\n`;
};

const RISKY_LINE = /^(?:From |\.)/m;

/** A quoted-printable line starting with "From " or "." with that character encoded; the rest stays. */
const guard = (line: string): string => (line.startsWith('.') ? `=2E${line.slice(1)}` : line.startsWith('From ') ? `=46${line.slice(1)}` : line);

/** Quoted-printable, wrapped at 74 so that a guarded line stays within RFC 2045's 76 characters. */
const quotedPrintable = (text: string): string => crlf(qp.wrap(qp.encode(crlf(text)), 74)).split('\r\n').map(guard).join('\r\n');

export const textBody = (text: string): { encoding: string; content: string } => {
    const normalized = text.replace(/\r\n|\r|\n/g, '\n');
    if (mimeFuncs.isPlainText(text) && !mimeFuncs.hasLongerLines(text, 76) && !RISKY_LINE.test(normalized)) {
        return { encoding: '7bit', content: crlf(text) };
    }

    return textEncoding(text) === 'Q' || !/[^\x00-\x7f]/.test(text)
        ? { encoding: 'quoted-printable', content: quotedPrintable(text) }
        : { encoding: 'base64', content: crlf(base64.wrap(base64.encode(text), 76)) };
};
