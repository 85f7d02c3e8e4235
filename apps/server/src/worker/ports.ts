import { type DataSourceData, errorMessage, type Ports, type Row } from '@flowctl/engine';
import type { Logger } from 'pino';

import { deliveryMessageId } from '../mail/compose.js';
import type { Mailer } from '../mail/mailer.js';
import type { Queryable } from '../store/db.js';
import { deliveryStates, writeDeliveries } from '../store/deliveries.js';
import { type AiEndpoint, complete } from './ai.js';
import { type DeliveryJournal, type JournalEntries, journalKey } from './delivery-journal.js';
import { DeliveryLog } from './delivery-log.js';
import type { Lease } from './lease.js';

/** What the worker needs from the rest of the server, so it does not depend on how services are built. */
export interface RunDeps {
    readUploadRows(accountId: string, uploadId: string): Promise<Row[]>;
    /** A Drive CSV or Google Sheet (`sheet`: one sheet by name) of the account's linked Google account. */
    readDriveRows(accountId: string, fileId: string, sheet?: string): Promise<Row[]>;
    /** The account's AI settings merged with the server's defaults. */
    aiSettings(accountId: string): Promise<AiEndpoint>;
}

export interface PortsEnv {
    db: Queryable;
    mailer: Mailer;
    mailConcurrency: number;
    deps: RunDeps;
    log: Logger;
    /** Right-hand side of the Message-IDs (the domain of MAIL_FROM). */
    messageDomain: string;
}

export interface PortsRun {
    id: string;
    /** The run whose elements these are: the run itself, or for a retry run the first run it retries. */
    originRunId: string;
    workflowId: string;
    accountId: string;
    lease: Lease;
    /** This attempt's local notes of what it sent; they also read an earlier attempt's. */
    journal: DeliveryJournal;
    /** True when an earlier attempt may have sent e-mails already. */
    resumed: boolean;
    /** Aborting stops the e-mails under way (the engine's own signal only stops starting new ones). */
    signal: AbortSignal;
    /** Called after each accepted e-mail with the node's running total. */
    onSent(nodeId: string, sent: number): void;
    /** Called whenever a side effect completes (an e-mail answered, a model reply, rows loaded). */
    onProgress(): void;
    /** Stops the run when its deliveries can no longer be recorded or its lease is lost. */
    fail(err: Error): void;
}

/**
 * An element as an earlier attempt left it: recorded SENT or FAILED; or SENDING and, by that attempt's
 * notes, ACCEPTED, UNSENT, or UNKNOWN (transmitted with no answer read, or no notes here).
 */
type Earlier = 'SENT' | 'FAILED' | 'ACCEPTED' | 'UNSENT' | 'UNKNOWN';

const isNotFound = (err: unknown): boolean => (err as { output?: { statusCode?: number } })?.output?.statusCode === 404;

export interface RunPorts extends Ports {
    /** Waits until every e-mail's outcome is recorded; rejects if one could not be. */
    settle(): Promise<void>;
}

/**
 * The engine's side effects for one run: upload rows, model calls, and e-mail recorded per element.
 *
 * Each e-mail's intent (run, node, element index, Message-ID) is committed before it is sent and its
 * outcome right after the server answers, together with the next intent (DeliveryLog). After a crash,
 * an element already SENT is skipped; one left SENDING (its outcome unknown) is sent again with the
 * same Message-ID, so a receiver that deduplicates drops it, and is counted as possibly duplicated.
 */
export const createPorts = (env: PortsEnv, run: PortsRun): RunPorts => {
    const states = new Map<string, Promise<Map<number, Earlier>>>();
    const sent = new Map<string, number>();
    const log = new DeliveryLog(
        (outcomes, intents) =>
            writeDeliveries(env.db, { id: run.id, originRunId: run.originRunId, workflowId: run.workflowId, token: run.lease.token, attempt: run.journal.attempt }, outcomes, intents),
        (err) => {
            env.log.error({ err, runId: run.id }, 'e-mail deliveries can no longer be recorded: the run stops');
            run.fail(err);
        },
        run.workflowId
    );
    let settings: Promise<AiEndpoint> | null = null;

    const notes = new Map<string, JournalEntries | null>();
    const notesOf = (attempt: string | null): JournalEntries | null => {
        if (attempt === null) {
            return null;
        }

        if (!notes.has(attempt)) {
            notes.set(attempt, run.journal.earlier(attempt));
        }

        return notes.get(attempt) ?? null;
    };

    /** What earlier attempts did with each element of a node, with their notes if they are here. */
    const earlierFor = async (nodeId: string): Promise<Map<number, Earlier>> => {
        const earlier = new Map<number, Earlier>();
        for (const [index, { status, attempt }] of await deliveryStates(env.db, run.id, nodeId)) {
            if (status !== 'SENDING') {
                earlier.set(index, status);
                continue;
            }

            const key = journalKey(nodeId, index);
            const noted = notesOf(attempt);
            earlier.set(index, noted?.accepted.has(key) ? 'ACCEPTED' : noted && !noted.transmitted.has(key) ? 'UNSENT' : 'UNKNOWN');
        }

        return earlier;
    };

    const statesFor = (nodeId: string): Promise<Map<number, Earlier>> => {
        let found = states.get(nodeId);
        if (!found) {
            found = run.resumed ? earlierFor(nodeId) : Promise.resolve(new Map());
            states.set(nodeId, found);
        }

        return found;
    };

    const count = (nodeId: string): void => {
        const total = (sent.get(nodeId) ?? 0) + 1;
        sent.set(nodeId, total);
        run.onSent(nodeId, total);
    };

    return {
        async loadRows(data: DataSourceData) {
            if (data.driveFileId) {
                return env.deps.readDriveRows(run.accountId, data.driveFileId, data.sheet);
            }

            if (!data.uploadId) {
                throw new Error("a DATA_SOURCE needs 'uploadId' or 'driveFileId'");
            }

            try {
                return await env.deps.readUploadRows(run.accountId, data.uploadId);
            } catch (err) {
                if (isNotFound(err)) {
                    throw new Error(`upload '${data.uploadId}' does not exist (it was deleted, or belongs to another account)`);
                }

                throw err;
            } finally {
                run.onProgress();
            }
        },

        async complete(request, ctx) {
            settings ??= env.deps.aiSettings(run.accountId);
            try {
                return await complete(await settings, request, ctx.signal);
            } finally {
                run.onProgress();
            }
        },

        async sendMail(message, key, ctx) {
            const earlier = (await statesFor(key.nodeId)).get(key.index);
            if (earlier === 'SENT') {
                count(key.nodeId);
                return;
            }

            if (earlier === 'ACCEPTED') {
                log.outcome({ node_id: key.nodeId, element_index: key.index, status: 'SENT', error: null, content: null });
                count(key.nodeId);
                return;
            }

            // A stopped run (cancelled, stalled, handed back) starts no send; nor does one that may have lost its lease.
            if (ctx.signal.aborted) {
                throw new Error('the run is stopping');
            }

            await run.lease.ensureLive();
            const messageId = deliveryMessageId(run.id, key.nodeId, key.index, env.messageDomain);
            run.journal.start();
            await log.intent({ node_id: key.nodeId, element_index: key.index, message_id: messageId, resent: earlier === 'UNKNOWN' });
            // Stopping the run keeps this e-mail from going out; once it is out, only a cancel or a lost lease interrupts it.
            const stop = new AbortController();
            let transmitted = false;
            let held = false;
            const stopSending = () => stop.abort(run.signal.reason);
            const stopWaiting = () => {
                if (!transmitted) {
                    stop.abort(ctx.signal.reason);
                }
            };
            run.signal.addEventListener('abort', stopSending);
            ctx.signal.addEventListener('abort', stopWaiting);
            const onTransmit = async () => {
                held = true;
                // The intent was fenced when written, but the e-mail may have waited for a connection since.
                await run.lease.ensureLive();
                if (ctx.signal.aborted) {
                    throw new Error('the run is stopping');
                }

                held = false;
                transmitted = true;
                run.journal.transmitting(key.nodeId, key.index);
            };
            try {
                await env.mailer.send({ to: message.to, subject: message.subject, text: message.body, messageId }, { retry: true, signal: stop.signal, onTransmit });
                // Before anything else can run: from here a crash must not send it again.
                run.journal.accepted(key.nodeId, key.index);
            } catch (err) {
                // Held back, it was not sent (the journal says so); given up under way, it may have been accepted.
                if (!held && !stop.signal.aborted) {
                    log.outcome({ node_id: key.nodeId, element_index: key.index, status: 'FAILED', error: errorMessage(err), content: message });
                }

                throw err;
            } finally {
                run.signal.removeEventListener('abort', stopSending);
                ctx.signal.removeEventListener('abort', stopWaiting);
                run.onProgress();
            }

            log.outcome({ node_id: key.nodeId, element_index: key.index, status: 'SENT', error: null, content: null });
            count(key.nodeId);
        },

        mailConcurrency: env.mailConcurrency,

        settle: () => log.settle()
    };
};
