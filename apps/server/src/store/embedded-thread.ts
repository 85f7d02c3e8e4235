import type { Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions, PGLiteSocketServer } from '@electric-sql/pglite-socket';

import { batchMessages } from './embedded-batch.js';
import { type ThreadReply, type ThreadRequest, ThreadSocket, type ThreadStart, transfer } from './thread-socket.js';

// The embedded database's own thread (started by embedded.ts; built to dist/embedded-thread.js).
// PGlite computes every statement here, so that the server's thread answers requests meanwhile.

const port = parentPort!;
const reply = (message: ThreadReply): void => port.postMessage(message, message.type === 'data' ? transfer(message.data) : []);

const serve = async ({ dir, startParams }: ThreadStart): Promise<void> => {
    const db = await PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, ...startParams] });
    // pglite-socket's handler wants the queue its server shares between connections (it keeps a
    // transaction's statements together), which that package makes but does not export: a server
    // that never listens lends it.
    const { queryQueue } = new PGLiteSocketServer({ db }) as unknown as { queryQueue: PGLiteSocketHandlerOptions['queryQueue'] };
    const sockets = new Map<number, ThreadSocket>();
    const handlers = new Set<PGLiteSocketHandler>();

    port.on('message', async (request: ThreadRequest) => {
        if (request.type === 'data') {
            sockets.get(request.id)?.receive(request.data);
            return;
        }

        if (request.type === 'connect') {
            const { id } = request;
            const socket = new ThreadSocket((data) => reply({ type: 'data', id, data }));
            sockets.set(id, socket);
            socket.once('close', () => sockets.delete(id));
            const handler = new PGLiteSocketHandler({ queryQueue, closeOnDetach: true });
            handlers.add(handler);
            handler.addEventListener('close', () => handlers.delete(handler));
            handler.addEventListener('error', () => handlers.delete(handler));
            void handler.attach(socket as unknown as Socket);
            batchMessages(handler);
            return;
        }

        await Promise.all([...handlers].map((handler) => handler.detach(true)));
        handlers.clear();
        await db.close();
        reply({ type: 'stopped' });
        port.close();
    });
    reply({ type: 'ready' });
};

serve(workerData as ThreadStart).catch((err: unknown) => {
    // Not every failure is an Error: PGlite's file system errors are plain objects.
    const message = err instanceof Error ? err.message : (err as { message?: unknown })?.message;
    reply({ type: 'failed', message: typeof message === 'string' ? message : String(JSON.stringify(err) ?? err) });
    port.close();
});
