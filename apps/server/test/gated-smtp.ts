import { SMTPServer } from 'smtp-server';

export interface GatedMessage {
    to: string;
    subject: string;
    messageId: string;
}

export interface GatedSmtp {
    url: string;
    /** Messages accepted (answered 250), in order. */
    accepted: GatedMessage[];
    /** Messages whose data arrived, whatever the answer: what holdAt counts. */
    readonly received: number;
    /**
     * Holds the `nth` message (1-based, counting every DATA received) before answering it. Resolves
     * once it has arrived, with `answer(accept)`: 250 and recorded, or 451 and dropped.
     */
    holdAt(nth: number): Promise<{ message: GatedMessage; answer(accept: boolean): void }>;
    close(): Promise<void>;
}

const header = (raw: string, name: string): string => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(raw)?.[1]?.trim() ?? '';

/**
 * A real SMTP server that can stop at a chosen message, so a test can act (cancel a run, kill a
 * worker) at an exact point of an OUTPUT node. Separate from smtp.ts: it records only what it
 * accepted, which is what "exactly once" is about.
 */
export const startGatedSmtp = async (): Promise<GatedSmtp> => {
    const accepted: GatedMessage[] = [];
    let received = 0;
    const holds = new Map<number, (held: { message: GatedMessage; answer(accept: boolean): void }) => void>();

    const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, _session, callback) {
            const chunks: Buffer[] = [];
            stream.on('data', (chunk: Buffer) => chunks.push(chunk));
            stream.on('end', () => {
                const raw = Buffer.concat(chunks).toString('utf8');
                const message = { to: header(raw, 'To'), subject: header(raw, 'Subject'), messageId: header(raw, 'Message-ID') };
                received++;
                const hold = holds.get(received);
                if (!hold) {
                    accepted.push(message);
                    callback();
                    return;
                }

                holds.delete(received);
                hold({
                    message,
                    answer(accept) {
                        if (accept) {
                            accepted.push(message);
                            callback();
                        } else {
                            const err = new Error('try again later') as Error & { responseCode: number };
                            err.responseCode = 451;
                            callback(err);
                        }
                    }
                });
            });
        }
    });

    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as { port: number };
    return {
        url: `smtp://127.0.0.1:${port}`,
        accepted,
        get received() {
            return received;
        },
        holdAt: (nth) => new Promise((resolve) => holds.set(nth, resolve)),
        close: () => new Promise<void>((resolve) => server.close(() => resolve()))
    };
};
