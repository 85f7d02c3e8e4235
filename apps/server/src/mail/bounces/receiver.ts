import type { Logger } from 'pino';
import { SMTPServer } from 'smtp-server';

import type { Config } from '../../config.js';
import type { SuppressionReason } from '../../store/suppressions.js';
import { readReport } from './reports.js';
import { readVerp } from './verp.js';

// The bounce receiver (BOUNCE_SMTP_PORT): an SMTP server that takes the reports mailed back to the
// VERP envelope senders of our e-mails, and suppresses the recipients they name, for the account
// whose token verifies for that recipient. A report whose token does not verify (forged, or naming
// another address than the one the token was made for) changes nothing. Mail for any other address
// is refused at RCPT, so the port is no open mailbox. It speaks plain SMTP on the port given: an MX
// in front of it (or a relay forwarding the bounce domain) brings the mail of the Internet there.

/** Reports quote the original message: a few hundred kB at most; anything bigger is no report of ours. */
const MAX_REPORT_BYTES = 2 * 1024 * 1024;

export interface BounceSink {
    suppress(accountId: string, workflowId: string | null, emails: string[], reason: SuppressionReason): Promise<number>;
}

export interface BounceReceiver {
    /** The port it listens on (the one given, or the one chosen for 0). */
    port: number;
    close(): Promise<void>;
}

export const startBounceReceiver = async (config: Config, encryptionKey: Buffer, sink: BounceSink, log: Logger): Promise<BounceReceiver> => {
    const handle = async (raw: string, envelopeTo: string[]): Promise<number> => {
        const report = readReport(raw);
        if (!report) {
            log.info({ to: envelopeTo.length }, 'bounce receiver: a message that is no delivery-status or feedback report was ignored');
            return 0;
        }

        const tokens = [...envelopeTo, ...report.returnPaths].map((candidate) => readVerp(encryptionKey, candidate)).filter((t) => t !== null);
        let suppressed = 0;
        for (const recipient of report.recipients) {
            const token = tokens.find((t) => t.verifies(recipient));
            if (!token) {
                log.warn({ kind: report.kind }, 'bounce receiver: a report whose VERP token does not verify for the recipient it names changed nothing');
                continue;
            }

            suppressed += await sink.suppress(token.accountId, null, [recipient], report.kind);
            log.info({ accountId: token.accountId, reason: report.kind }, 'bounce receiver: a recipient was suppressed');
        }

        return suppressed;
    };

    const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['AUTH', 'STARTTLS'],
        logger: false,
        size: MAX_REPORT_BYTES,
        maxClients: 50,
        banner: 'flowctl bounce receiver',
        onRcptTo(address, _session, callback) {
            if (!readVerp(encryptionKey, address.address)) {
                return callback(Object.assign(new Error('5.1.1 no such mailbox here'), { responseCode: 550 }));
            }

            callback();
        },
        onData(stream, session, callback) {
            const chunks: Buffer[] = [];
            stream.on('data', (chunk: Buffer) => chunks.push(chunk));
            stream.on('end', () => {
                if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
                    return callback(Object.assign(new Error('5.3.4 report too big'), { responseCode: 552 }));
                }

                handle(
                    Buffer.concat(chunks).toString('utf8'),
                    session.envelope.rcptTo.map((r) => r.address)
                ).then(
                    () => callback(),
                    (err: Error) => {
                        log.warn({ err }, 'bounce receiver: a report could not be applied; the sender is asked to try again');
                        callback(Object.assign(new Error('4.3.0 try again later'), { responseCode: 451 }));
                    }
                );
            });
        }
    });
    server.on('error', (err) => log.warn({ err }, 'bounce receiver: connection error'));

    await new Promise<void>((resolve, reject) => {
        server.server.once('error', reject);
        server.listen(config.bounce.smtpPort ?? 0, config.bounce.smtpHost, () => {
            server.server.off('error', reject);
            resolve();
        });
    });
    const port = (server.server.address() as { port: number }).port;
    log.info({ host: config.bounce.smtpHost, port }, 'bounce receiver listening');
    return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};
