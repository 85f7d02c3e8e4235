import type { DataSourceData, Ports, Row } from '@flowctl/engine';
import type { Logger } from 'pino';

import type { Mailer } from '../mail/mailer.js';
import type { Queryable } from '../store/db.js';
import { deliveredIndexes, recordDelivery } from '../store/deliveries.js';
import { type AiEndpoint, complete } from './ai.js';
import type { Lease } from './lease.js';

/** What the worker needs from the rest of the server, so it does not depend on how services are built. */
export interface RunDeps {
    readUploadRows(accountId: string, uploadId: string): Promise<Row[]>;
    /** The account's AI settings merged with the server's defaults. */
    aiSettings(accountId: string): Promise<AiEndpoint>;
}

export interface PortsEnv {
    db: Queryable;
    mailer: Mailer;
    mailConcurrency: number;
    deps: RunDeps;
    log: Logger;
}

export interface PortsRun {
    id: string;
    accountId: string;
    lease: Lease;
    /** True when an earlier attempt may have sent e-mails already. */
    resumed: boolean;
    /** Aborting stops the e-mails under way (the engine's own signal only stops starting new ones). */
    signal: AbortSignal;
    /** Called after each accepted e-mail with the node's running total. */
    onSent(nodeId: string, sent: number): void;
    /** Stops the run when its deliveries can no longer be recorded. */
    fail(err: Error): void;
}

const isNotFound = (err: unknown): boolean => (err as { output?: { statusCode?: number } })?.output?.statusCode === 404;

export interface RunPorts extends Ports {
    /** Waits until every accepted e-mail is recorded; rejects if one could not be. */
    settle(): Promise<void>;
}

/**
 * The engine's side effects for one run: upload rows, model calls, and exactly-once e-mail.
 *
 * E-mails go out `mailConcurrency` at a time, as if over that many lanes, and each is recorded (run,
 * node, element index) before its lane's next one can be accepted by the server: the next message
 * is composed and addressed while the previous record is written, but its data is sent only once
 * that write committed. A worker that dies thus leaves at most one message per lane, the one the
 * server was accepting, unrecorded. Temporary SMTP failures are retried; a cancel stops a message
 * under way.
 */
export const createPorts = (env: PortsEnv, run: PortsRun): RunPorts => {
    const delivered = new Map<string, Promise<Set<number>>>();
    /**
     * Per idle lane, the record of its last accepted e-mail (rejecting if the write failed). A send
     * takes one (or starts a new lane) and puts back its own; there are never more lanes than
     * sends in flight at once.
     */
    const lanes: Promise<void>[] = [];
    const records = new Set<Promise<void>>();
    let unrecorded: Error | null = null;
    const sent = new Map<string, number>();
    let settings: Promise<AiEndpoint> | null = null;

    const deliveredFor = (nodeId: string): Promise<Set<number>> => {
        let set = delivered.get(nodeId);
        if (!set) {
            set = run.resumed ? deliveredIndexes(env.db, run.id, nodeId) : Promise.resolve(new Set<number>());
            delivered.set(nodeId, set);
        }

        return set;
    };

    const count = (nodeId: string): void => {
        const total = (sent.get(nodeId) ?? 0) + 1;
        sent.set(nodeId, total);
        run.onSent(nodeId, total);
    };

    return {
        async loadRows(data: DataSourceData) {
            if (!data.uploadId) {
                throw new Error('this server reads DATA_SOURCE rows from uploads only: set data.uploadId');
            }

            try {
                return await env.deps.readUploadRows(run.accountId, data.uploadId);
            } catch (err) {
                if (isNotFound(err)) {
                    throw new Error(`upload '${data.uploadId}' does not exist (it was deleted, or belongs to another account)`);
                }

                throw err;
            }
        },

        async complete(request, ctx) {
            settings ??= env.deps.aiSettings(run.accountId);
            return complete(await settings, request, ctx.signal);
        },

        async sendMail(message, key) {
            const done = await deliveredFor(key.nodeId);
            if (done.has(key.index)) {
                count(key.nodeId);
                return;
            }

            // A worker that may have lost its lease must not send: the new holder will.
            await run.lease.ensureLive();
            const after = lanes.pop() ?? Promise.resolve();
            let messageId: string;
            try {
                ({ messageId } = await env.mailer.send(
                    { to: message.to, subject: message.subject, text: message.body },
                    { after, signal: run.signal, retry: true }
                ));
            } catch (err) {
                // Not sent: the lane's previous record is still the one to wait for.
                lanes.push(after);
                throw err;
            }

            const recorded = recordDelivery(env.db, run.id, key.nodeId, key.index, messageId).catch((err: Error) => {
                env.log.error({ err, runId: run.id, nodeId: key.nodeId, index: key.index, messageId }, 'e-mail sent but its delivery not recorded');
                const error = new Error(`an e-mail was sent but its delivery could not be recorded, so the run stops: ${err.message}`);
                unrecorded ??= error;
                run.fail(error);
                throw error;
            });
            // Observed here so a failure is never unhandled; the lane's next send and settle() see it too.
            recorded.catch(() => {});
            records.add(recorded);
            recorded.finally(() => records.delete(recorded)).catch(() => {});
            lanes.push(recorded);
            done.add(key.index);
            count(key.nodeId);
        },

        mailConcurrency: env.mailConcurrency,

        settle: async () => {
            await Promise.allSettled([...records]);
            if (unrecorded) {
                throw unrecorded;
            }
        }
    };
};
