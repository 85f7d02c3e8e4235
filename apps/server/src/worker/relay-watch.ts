import type { NodeState } from '@flowctl/engine';

import type { RelaySnapshot, RelayState } from '../mail/relay-state.js';

// While the relay is down, a run's sending OUTPUT nodes say so in the run detail (and so in
// `flowctl run --watch`): `waiting: relay unreachable since 10:02:03Z, next try in 2 s (last reply: …)`.
// The figure is written with the node's live count, and again at each failed probe and when the
// relay is back.

const clock = (at: Date): string => `${at.toISOString().slice(11, 19)}Z`;

/** Why sending is held up, in words. */
export const waitingText = (state: RelaySnapshot, now = Date.now()): string => {
    const what = /^[45]\d\d\b/.test(state.lastReply ?? '') ? 'relay refusing mail' : 'relay unreachable';
    const next = state.nextTryAt ? `, next try in ${Math.max(0, Math.ceil((state.nextTryAt.getTime() - now) / 1000))} s` : '';
    return `${what} since ${state.since ? clock(state.since) : '?'}${next}${state.lastReply ? ` (last reply: ${state.lastReply})` : ''}`;
};

export interface RelayWatch {
    /** The summary to show for an OUTPUT node that has sent `sent` e-mails so far. */
    summary(nodeId: string, sent: number): Record<string, unknown>;
    /** Follows which OUTPUT nodes are sending. */
    node(state: NodeState): void;
    stop(): void;
}

export const watchRelay = (relay: RelayState | undefined, progress: (nodeId: string, summary: Record<string, unknown>) => void): RelayWatch => {
    const sending = new Map<string, number>();
    const summary = (nodeId: string, sent: number): Record<string, unknown> => {
        sending.set(nodeId, sent);
        const state = relay?.snapshot();
        return state?.condition === 'down' ? { emailsSent: sent, waiting: waitingText(state) } : { emailsSent: sent };
    };
    const show = () => {
        for (const [nodeId, sent] of sending) {
            progress(nodeId, summary(nodeId, sent));
        }
    };
    relay?.on('change', show);
    relay?.on('probe', show);
    return {
        summary,
        node(state) {
            if (state.type !== 'OUTPUT') {
                return;
            }

            if (state.status === 'RUNNING') {
                if (!sending.has(state.nodeId)) {
                    sending.set(state.nodeId, 0);
                    if (relay?.snapshot().condition === 'down') {
                        progress(state.nodeId, summary(state.nodeId, 0));
                    }
                }
            } else {
                sending.delete(state.nodeId);
            }
        },
        stop() {
            relay?.off('change', show);
            relay?.off('probe', show);
        }
    };
};
