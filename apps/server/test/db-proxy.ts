import Net from 'node:net';

export interface DbProxy {
    /** The database URL, through the proxy. */
    url: string;
    /** Connections the proxy was asked for, since it started (refused ones too). */
    readonly attempts: number;
    /** Closes every connection and refuses new ones: a database that stopped. */
    cut(): void;
    /** Passes nothing either way, and answers no new connection: a frozen database (SIGSTOP). */
    freeze(): void;
    /**
     * The next statement whose request contains `marker` (a prepared statement's name, sent with every
     * execution) is carried out, but its reply never arrives: the connection is closed when the reply
     * comes (after the commit of a statement outside a transaction). A connection lost at the worst moment.
     */
    loseReplyTo(marker: string): void;
    /** Back to passing everything; connections held while frozen are closed. */
    restore(): void;
    close(): Promise<void>;
}

/**
 * A TCP proxy between the service and its PostgreSQL server, so a test can make the database go
 * away or freeze without touching the server (which other tests share).
 */
export const startDbProxy = async (databaseUrl: string): Promise<DbProxy> => {
    const target = new URL(databaseUrl);
    let mode: 'open' | 'cut' | 'frozen' = 'open';
    let attempts = 0;
    let replyToLose: Buffer | null = null;
    const sockets = new Set<Net.Socket>();
    const track = (socket: Net.Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
    };
    const closeAll = () => {
        for (const socket of sockets) {
            socket.destroy();
        }
    };

    const server = Net.createServer((client) => {
        attempts++;
        track(client);
        if (mode === 'cut') {
            client.destroy();
            return;
        }

        if (mode === 'frozen') {
            client.pause();
            return;
        }

        const upstream = Net.connect(Number(target.port || 5432), target.hostname);
        track(upstream);
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
        let loseReply = false;
        // Forwarded only while open: frozen, nothing gets through, and restore() closes these.
        client.on('data', (chunk: Buffer) => {
            if (replyToLose && chunk.includes(replyToLose)) {
                replyToLose = null;
                loseReply = true;
            }

            if (mode === 'open') {
                upstream.write(chunk);
            }
        });
        upstream.on('data', (chunk) => {
            if (loseReply) {
                client.destroy();
                upstream.destroy();
            } else if (mode === 'open') {
                client.write(chunk);
            }
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as Net.AddressInfo;
    const url = new URL(databaseUrl);
    url.host = `127.0.0.1:${port}`;

    return {
        url: url.toString(),
        get attempts() {
            return attempts;
        },
        cut() {
            mode = 'cut';
            closeAll();
        },
        freeze() {
            mode = 'frozen';
        },
        loseReplyTo(marker) {
            replyToLose = Buffer.from(marker);
        },
        restore() {
            if (mode === 'frozen') {
                closeAll();
            }

            mode = 'open';
        },
        async close() {
            closeAll();
            await new Promise<void>((resolve) => server.close(() => resolve()));
        }
    };
};
