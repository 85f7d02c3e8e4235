import { type DataSourceData, type DeliveryKey, errorMessage, type MailMessage, type Ports, type SuppressionCandidate } from '@flowctl/engine';
import type { Logger } from 'pino';

import { deliveryMessageId } from '../mail/compose.js';
import type { Mailer } from '../mail/mailer.js';
import { isTemporary } from '../mail/smtp-errors.js';
import type { MailMetrics } from './mail-metrics.js';
import type { Queryable } from '../store/db.js';
import { writeDeliveries } from '../store/deliveries.js';
import { writeOutputElements } from '../store/delivery-ledger.js';
import { createAiPorts } from './ai-ports.js';
import { markResent } from '../store/interruptions.js';
import { type DeliveryJournal, journalKey } from './delivery-journal.js';
import { earlierDeliveries } from './earlier-deliveries.js';
import { DeliveryLog } from './delivery-log.js';
import type { Lease } from './lease.js';
import { isPermanentRecipientRefusal } from '../mail/bounces/refusal.js';
import type { RunDeps } from '../services/run-deps.js';

export interface PortsEnv {
    db: Queryable;
    mailer: Mailer;
    mailConcurrency: number;
    /** AI_CONCURRENCY: model calls in flight per AI node at most. */
    aiConcurrency: number;
    /** AI_RETRY_BUDGET_MS: how long a call may be answered 429/503 before its node fails. */
    aiRetryBudgetMs: number;
    deps: RunDeps;
    log: Logger;
    /** Right-hand side of the Message-IDs (the domain of MAIL_FROM). */
    messageDomain: string;
    /** E-mails by outcome and send latency on /metrics. */
    metrics?: MailMetrics;
}

export interface PortsRun {
    id: string;
    /** The run whose elements these are: the run itself, or for a retry run the first run it retries. */
    originRunId: string;
    workflowId: string;
    accountId: string;
    /** The upload holding the rows posted to the workflow's hook for this run, if it was started so. */
    triggerUploadId?: string | null;
    lease: Lease;
    /** This attempt's local notes of what it sent; they also read an earlier attempt's. */
    journal: DeliveryJournal;
    /** True when an earlier attempt may have sent e-mails already. */
    resumed: boolean;
    /**
     * A retry that executes the graph again (of a run given up, or stopped before its computing nodes
     * all succeeded): an element that any run of the chain delivered, or may have, is neither sent nor
     * counted, and a model reply recorded for the retried run (copied to this one) is not asked again.
     */
    rederived?: boolean;
    /** Called after each new e-mail this attempt sent and the server accepted (not one found sent, nor one sent again). */
    onAccepted?(): void;
    /** Aborting stops the e-mails under way (the engine's own signal only stops starting new ones). */
    signal: AbortSignal;
    /** Called after each accepted e-mail with the node's running total. */
    onSent(nodeId: string, sent: number): void;
    /** Called as an OUTPUT node starts with how many elements it has: the total of its progress. */
    onElements?(nodeId: string, elements: number): void;
    /** Called as an AI node's elements get their replies: live progress while it runs. */
    onAiProgress?(nodeId: string, progress: { aiDone: number; aiTotal: number }): void;
    /** Called whenever a side effect completes (an e-mail answered, a model reply, rows loaded). */
    onProgress(): void;
    /** Stops the run when its deliveries can no longer be recorded or its lease is lost. */
    fail(err: Error): void;
    /** Wraps a wait on the network (a model call, an e-mail under way): the run's slot is free meanwhile. */
    waitOn?<T>(wait: () => Promise<T>): Promise<T>;
}

const isNotFound = (err: unknown): boolean => (err as { output?: { statusCode?: number } })?.output?.statusCode === 404;

export interface RunPorts extends Ports {
    /** Waits until every e-mail's outcome (and model reply) is recorded; rejects if an outcome could not be. */
    settle(): Promise<void>;
    /** E-mails this attempt sent again after a copy went out unanswered. */
    resends(): number;
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
    /**
     * When this attempt at the run began sending (its first e-mail): past the relay's limit, its
     * e-mails probe a relay that failed before then, and fail untried one that failed since (mailer.ts).
     */
    let startedAt: number | undefined;
    const sent = new Map<string, number>();
    /** Elements an earlier attempt already sent again after an unanswered copy (journalKey). */
    const resentBefore = new Set<string>();
    /** Why each element an earlier attempt recorded FAILED failed (journalKey). */
    const failedBefore = new Map<string, string>();
    let resends = 0;
    const log = new DeliveryLog(
        (outcomes, intents) =>
            writeDeliveries(env.db, { id: run.id, originRunId: run.originRunId, workflowId: run.workflowId, token: run.lease.token, attempt: run.journal.attempt }, outcomes, intents),
        (err) => {
            env.log.error({ err, runId: run.id }, 'e-mail deliveries can no longer be recorded: the run stops');
            run.fail(err);
        },
        run.workflowId
    );
    const ai = createAiPorts(env, run);
    const statesFor = earlierDeliveries(env, run, resentBefore, failedBefore);

    const consent = env.deps.consent;
    /** Elements an earlier attempt recorded SUPPRESSED (journalKey): left out again, not recorded nor counted twice. */
    const recordedSuppressed = new Set<string>();
    const elementsWritten = new Map<string, Promise<void>>();
    /**
     * Records how many elements the node has, once per attempt: the ledger lists those without a
     * record as pending. Not waited for by the sends (settle() waits for it); a failure only costs
     * the ledger its pending rows.
     */
    const noteElements = (key: DeliveryKey): void => {
        if (key.elements === undefined) {
            return;
        }

        if (!elementsWritten.has(key.nodeId)) {
            run.onElements?.(key.nodeId, key.elements);
            const written = writeOutputElements(env.db, run.id, key.nodeId, key.elements).catch((err) => {
                env.log.warn({ err, runId: run.id, nodeId: key.nodeId }, 'could not record how many e-mails the node has: the delivery ledger lists no pending ones');
            });
            elementsWritten.set(key.nodeId, written);
        }
    };

    const count = (nodeId: string): void => {
        const total = (sent.get(nodeId) ?? 0) + 1;
        sent.set(nodeId, total);
        run.onSent(nodeId, total);
    };

    return {
        async triggerRows(ctx) {
            if (!run.triggerUploadId) {
                return [];
            }

            try {
                return await env.deps.readUploadRows(run.accountId, run.triggerUploadId, ctx.signal);
            } finally {
                run.onProgress();
            }
        },
        async loadRows(data: DataSourceData, ctx) {
            if (data.driveFileId) {
                return env.deps.readDriveRows(run.accountId, data.driveFileId, data.sheet);
            }

            if (!data.uploadId) {
                throw new Error("a DATA_SOURCE needs 'uploadId' or 'driveFileId'");
            }

            try {
                return await env.deps.readUploadRows(run.accountId, data.uploadId, ctx.signal);
            } catch (err) {
                if (isNotFound(err)) {
                    throw new Error(`upload '${data.uploadId}' does not exist (it was deleted, or belongs to another account)`);
                }

                throw err;
            } finally {
                run.onProgress();
            }
        },

        complete: ai.complete,
        recordReply: ai.recordReply,
        aiConcurrency: ai.aiConcurrency,

        async mailFailed(key, failure) {
            noteElements(key);
            log.outcome({ node_id: key.nodeId, element_index: key.index, status: 'FAILED', error: failure.reason, content: null, recipient: failure.to });
        },

        async sendMail(message, key, ctx) {
            noteElements(key);
            const earlier = (await statesFor(key.nodeId)).get(key.index);
            // Suppressed by an earlier attempt (asked here only when the suppression list is not at hand): never sent.
            if (earlier === 'ELSEWHERE' || earlier === 'SUPPRESSED') {
                return false;
            }

            if (earlier === 'MAYBE') {
                return 'unknown';
            }

            if (earlier === 'SENT') {
                count(key.nodeId);
                return;
            }

            // Refused (or given up) in an earlier attempt of this run: an e-mail is sent at most once per
            // run, so it fails again with the reason recorded, unsent; a retry of the run sends it.
            if (earlier === 'FAILED') {
                // Refused after a copy whose answer was never read: that copy may have arrived (see below).
                if (resentBefore.has(journalKey(key.nodeId, key.index))) {
                    return 'unknown';
                }

                throw new Error(failedBefore.get(journalKey(key.nodeId, key.index)) ?? 'refused by the mail server');
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
            await log.intent({ node_id: key.nodeId, element_index: key.index, message_id: messageId, resent: earlier === 'UNKNOWN', recipient: message.to });
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
            // A copy of it went out and its answer was never read (now, or in an earlier attempt).
            let flagged = earlier === 'UNKNOWN' || resentBefore.has(journalKey(key.nodeId, key.index));
            const onTransmit = async ({ again }: { again: boolean }) => {
                if (again && !flagged) {
                    // Recorded before the copy goes out, so that no crash can hide it.
                    await markResent(env.db, run.id, key.nodeId, key.index);
                    flagged = true;
                    resends++;
                }

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
            const began = Date.now();
            try {
                startedAt ??= began;
                const send = async () => {
                    const envelopeFrom = consent?.returnPath(run.accountId, message.to);
                    const mail = { to: message.to, subject: message.subject, text: message.body, messageId, html: message.html, unsubscribeUrl: message.unsubscribeUrl, envelopeFrom };
                    await env.mailer.send(mail, {
                        retry: true,
                        startedAt,
                        signal: stop.signal,
                        onTransmit,
                        onRefused: () => run.journal.refused(key.nodeId, key.index)
                    });
                    // Before anything else can run: from here a crash must not send it again.
                    run.journal.accepted(key.nodeId, key.index);
                };
                await (run.waitOn ? run.waitOn(send) : send());
            } catch (err) {
                // Held back, it was not sent (the journal says so); given up under way, it may have been accepted.
                const refused = !held && !stop.signal.aborted;
                // A copy went out unanswered and none after it (the relay was gone): it may have arrived,
                // so it is recorded as one sent again would be, before its outcome.
                if (refused && !flagged && (err as { unanswered?: boolean }).unanswered === true) {
                    await markResent(env.db, run.id, key.nodeId, key.index);
                    flagged = true;
                }

                if (refused) {
                    log.outcome({ node_id: key.nodeId, element_index: key.index, status: 'FAILED', error: errorMessage(err), content: message });
                    env.metrics?.emails.inc({ outcome: isTemporary(err) || (err as { code?: string }).code === 'ERELAYDOWN' ? 'failed' : 'refused' });
                    // The server refused the recipient for good (5.1.1 no such user): no later run mails it.
                    if (consent && isPermanentRecipientRefusal(err)) {
                        await consent.suppress(run.accountId, run.workflowId, message.to, 'bounced').catch((failure) =>
                            env.log.warn({ err: failure, runId: run.id }, 'a refused recipient could not be added to the suppression list')
                        );
                    }
                }

                // Refusing this copy says nothing of the one whose answer was never read: it may have
                // arrived, so the element is no failure to count, nor one for a retry to send.
                if (refused && flagged) {
                    return 'unknown';
                }

                throw err;
            } finally {
                run.signal.removeEventListener('abort', stopSending);
                ctx.signal.removeEventListener('abort', stopWaiting);
                run.onProgress();
            }

            log.outcome({ node_id: key.nodeId, element_index: key.index, status: 'SENT', error: null, content: null });
            env.metrics?.emails.inc({ outcome: 'sent' });
            env.metrics?.sendSeconds.observe((Date.now() - began) / 1000);
            // Sending again an element whose first copy may have arrived is no progress: a crash loop can do that forever.
            if (earlier !== 'UNKNOWN') {
                run.onAccepted?.();
            }

            count(key.nodeId);
        },

        mailConcurrency: env.mailConcurrency,

        ...(consent
            ? {
                  async suppressed(nodeId: string, elements: SuppressionCandidate[]) {
                      const listed = await consent.suppressedAmong(run.accountId, [...new Set(elements.map((e) => e.address))]);
                      const earlier = await statesFor(nodeId);
                      const left = new Set<number>();
                      for (const { index, address } of elements) {
                          const before = earlier.get(index);
                          if (before === 'SUPPRESSED') {
                              // Left out by an earlier attempt: it stays so, even if the address has left the list since.
                              recordedSuppressed.add(journalKey(nodeId, index));
                              left.add(index);
                          } else if (listed.has(address) && (before ?? 'FAILED') === 'FAILED') {
                              // An element an earlier attempt recorded (sent, or under way) stays sendMail's to settle,
                              // so that its count and its delivery record agree; only one never tried (or refused) is left out.
                              left.add(index);
                          }
                      }

                      return left;
                  },
                  onSuppressed(message: MailMessage, key: DeliveryKey) {
                      noteElements(key);
                      const noted = journalKey(key.nodeId, key.index);
                      if (recordedSuppressed.has(noted)) {
                          // Recorded and counted by the attempt that left it out.
                          return;
                      }

                      env.metrics?.emails.inc({ outcome: 'suppressed' });
                      // A copy sent before went unanswered and may have arrived: the record stays as it is (unknown).
                      if (!resentBefore.has(noted)) {
                          log.outcome({ node_id: key.nodeId, element_index: key.index, status: 'SUPPRESSED', error: null, content: null, recipient: message.to });
                      }
                  },
                  unsubscribeUrl: (to: string) => consent.unsubscribeUrl(run.accountId, run.workflowId, to)
              }
            : {}),

        settle: async () => {
            await ai.settle();
            await log.settle();
            await Promise.all(elementsWritten.values());
        },

        resends: () => resends
    };
};
