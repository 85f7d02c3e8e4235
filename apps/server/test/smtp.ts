import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
    from: string;
    to: string[];
    subject: string;
    text: string;
    raw: string;
}

export interface SmtpSink {
    url: string;
    messages: ReceivedMail[];
    /** Resolves once at least `count` messages arrived; rejects after `timeoutMs`. */
    waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
    /** Makes the next deliveries to these addresses fail with a 550. */
    reject(address: string): void;
    close(): Promise<void>;
}

const addresses = (value: ParsedMail['to']): string[] =>
    (Array.isArray(value) ? value : value ? [value] : []).flatMap((group) => group.value.map((entry) => entry.address ?? ''));

/** A real SMTP server on loopback that keeps what it receives. */
export const startSmtpSink = async (): Promise<SmtpSink> => {
    const messages: ReceivedMail[] = [];
    const rejected = new Set<string>();
    let waiters: (() => void)[] = [];

    const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onRcptTo(address, _session, callback) {
            if (rejected.has(address.address.toLowerCase())) {
                const err = new Error('mailbox unavailable') as Error & { responseCode: number };
                err.responseCode = 550;
                return callback(err);
            }

            callback();
        },
        onData(stream, _session, callback) {
            const chunks: Buffer[] = [];
            stream.on('data', (chunk: Buffer) => chunks.push(chunk));
            stream.on('end', async () => {
                const raw = Buffer.concat(chunks).toString('utf8');
                const parsed = await simpleParser(raw);
                messages.push({
                    from: addresses(parsed.from as ParsedMail['to'])[0] ?? '',
                    to: addresses(parsed.to),
                    subject: parsed.subject ?? '',
                    text: (parsed.text ?? '').replace(/\n$/, ''),
                    raw
                });
                for (const wake of waiters) {
                    wake();
                }

                callback();
            });
        }
    });

    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as { port: number };

    return {
        url: `smtp://127.0.0.1:${port}`,
        messages,
        reject: (address) => rejected.add(address.toLowerCase()),
        waitFor(count, timeoutMs = 10_000) {
            return new Promise((resolve, reject) => {
                const check = () => {
                    if (messages.length >= count) {
                        clearTimeout(timer);
                        waiters = waiters.filter((w) => w !== check);
                        resolve(messages.slice());
                        return true;
                    }

                    return false;
                };

                const timer = setTimeout(() => {
                    waiters = waiters.filter((w) => w !== check);
                    reject(new Error(`expected ${count} e-mails within ${timeoutMs} ms, got ${messages.length}`));
                }, timeoutMs);
                if (!check()) {
                    waiters.push(check);
                }
            });
        },
        close: () => new Promise<void>((resolve) => server.close(() => resolve()))
    };
};
