import { deliveryStates } from '../store/deliveries.js';
import { chainDeliveries } from '../store/interruptions.js';
import { type JournalEntries, journalKey } from './delivery-journal.js';
import type { PortsEnv, PortsRun } from './ports.js';

/**
 * An element as an earlier attempt left it: recorded SENT, FAILED or SUPPRESSED; or SENDING and, by that attempt's
 * notes, ACCEPTED, UNSENT, or UNKNOWN (transmitted with no answer read, or no notes here). For a
 * retry that executes the graph again, ELSEWHERE: another run of the chain sent it; MAYBE: another
 * run's copy has an unknown outcome (left SENDING, or sent again and then refused).
 */
export type Earlier = 'SENT' | 'FAILED' | 'SUPPRESSED' | 'ACCEPTED' | 'UNSENT' | 'UNKNOWN' | 'ELSEWHERE' | 'MAYBE';

/**
 * What earlier attempts at the run (and, for a retry that executes the graph again, the other runs of
 * its chain) did with each element of a node, read once per node from their records and this
 * machine's delivery notes. Elements an earlier attempt sent again after an unanswered copy are added
 * to `resentBefore`; those it recorded FAILED to `failedBefore`, with why.
 */
export const earlierDeliveries = (
    env: PortsEnv,
    run: PortsRun,
    resentBefore: Set<string>,
    failedBefore: Map<string, string>
): ((nodeId: string) => Promise<Map<number, Earlier>>) => {
    const states = new Map<string, Promise<Map<number, Earlier>>>();
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
        for (const [index, { status, attempt, resent, error }] of await deliveryStates(env.db, run.id, nodeId)) {
            if (resent) {
                resentBefore.add(journalKey(nodeId, index));
            }

            if (status === 'FAILED') {
                failedBefore.set(journalKey(nodeId, index), error ?? 'refused by the mail server');
            }

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

    /**
     * For a retry that executes the graph again: this run's own records as in earlierFor, ELSEWHERE
     * for what another run of the chain sent, and MAYBE for what it may have sent. Failures and
     * elements never reached are sent.
     */
    const chainFor = async (nodeId: string): Promise<Map<number, Earlier>> => {
        const earlier = run.resumed ? await earlierFor(nodeId) : new Map<number, Earlier>();
        for (const row of await chainDeliveries(env.db, run.originRunId, run.id, nodeId)) {
            const index = row.element_index;
            if (row.own || earlier.get(index) === 'SENT' || earlier.get(index) === 'ELSEWHERE') {
                continue;
            }

            if (row.status === 'SENT') {
                earlier.set(index, 'ELSEWHERE');
            } else if (row.status === 'SENDING' || row.resent) {
                // Another run's SENDING rows were settled from its notes when it ended: what is left
                // may have arrived. So may a row that run sent again after such a copy, even if the
                // server refused the second copy: sent from here, under this run's Message-ID, no
                // receiver could tell it from a new e-mail.
                earlier.set(index, 'MAYBE');
            }
        }

        return earlier;
    };

    const statesFor = (nodeId: string): Promise<Map<number, Earlier>> => {
        let found = states.get(nodeId);
        if (!found) {
            found = run.rederived ? chainFor(nodeId) : run.resumed ? earlierFor(nodeId) : Promise.resolve(new Map());
            states.set(nodeId, found);
        }

        return found;
    };

    return statesFor;
};
