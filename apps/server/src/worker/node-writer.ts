import type { NodeState } from '@flowctl/engine';
import type { Logger } from 'pino';

import type { NodeRow } from '../store/runs.js';
import { toNodeRow } from '../store/node-summary.js';

/**
 * Longest a status transition waits before it is visible: short, because a client long-polling the
 * run (Prefer: wait) is woken by the write. Progress figures alone wait longer, to batch more.
 */
export const FLUSH_MS = 25;
export const PROGRESS_FLUSH_MS = 100;

/**
 * Persists node transitions write-behind: changes within FLUSH_MS go out in one statement, and the
 * run's terminal write carries whatever is left. A fast run thus costs one or two statements, not
 * two per node, which matters on the embedded store. Nothing here is needed for exactly-once
 * e-mail: deliveries are recorded separately, before the next element.
 */
export class NodeWriter {
    private readonly rows = new Map<string, NodeRow>();
    private readonly dirty = new Set<string>();
    /** Status and completion time last written per node, to skip unchanged ones at the end. */
    private readonly written = new Map<string, string>();
    private timer: NodeJS.Timeout | null = null;
    private dueAt = 0;
    private inflight: Promise<void> = Promise.resolve();
    private frozen = false;

    constructor(
        private readonly save: (rows: NodeRow[]) => Promise<boolean>,
        private readonly onLost: () => void,
        private readonly log: Logger
    ) {}

    change(state: NodeState): void {
        if (this.frozen) {
            return;
        }

        this.rows.set(state.nodeId, toNodeRow(state));
        this.mark(state.nodeId, FLUSH_MS);
    }

    /**
     * A running node's live figures (e-mails sent so far). Kept even when frozen: an e-mail accepted
     * while the run is being handed back was still sent, and the run waiting PENDING shows it.
     */
    progress(nodeId: string, summary: Record<string, unknown>): void {
        const row = this.rows.get(nodeId);
        if (row?.status !== 'RUNNING') {
            return;
        }

        row.summary = summary;
        this.mark(nodeId, PROGRESS_FLUSH_MS);
    }

    /** Ignore later transitions: they describe an interrupted execution, not the run. */
    freeze(): void {
        this.frozen = true;
    }

    /** Waits for the write in flight and returns what is still unwritten. */
    async settle(): Promise<NodeRow[]> {
        if (this.timer) {
            clearTimeout(this.timer);
            this.timer = null;
        }

        await this.inflight;
        return this.take();
    }

    /** The final states that differ from what was written, for the terminal write. */
    async finalRows(states: NodeState[]): Promise<NodeRow[]> {
        const unwritten = new Map((await this.settle()).map((row) => [row.node_id, row]));
        for (const state of states) {
            const row = toNodeRow(state);
            if (this.written.get(state.nodeId) !== key(row)) {
                unwritten.set(state.nodeId, row);
            }
        }

        return [...unwritten.values()];
    }

    private mark(nodeId: string, withinMs: number): void {
        this.dirty.add(nodeId);
        const dueAt = Date.now() + withinMs;
        if (this.timer && this.dueAt <= dueAt) {
            return;
        }

        if (this.timer) {
            clearTimeout(this.timer);
        }

        this.dueAt = dueAt;
        this.timer = setTimeout(() => {
            this.timer = null;
            this.inflight = this.inflight.then(() => this.flush());
        }, withinMs);
    }

    private take(): NodeRow[] {
        const rows = [...this.dirty].map((id) => this.rows.get(id) as NodeRow);
        this.dirty.clear();
        return rows;
    }

    private async flush(): Promise<void> {
        const rows = this.take();
        if (rows.length === 0) {
            return;
        }

        try {
            if (!(await this.save(rows))) {
                this.frozen = true;
                this.onLost();
                return;
            }

            for (const row of rows) {
                this.written.set(row.node_id, key(row));
            }
        } catch (err) {
            // Kept for the next write: the terminal write carries them at the latest.
            this.log.warn({ err }, 'could not save node states; retrying with the next write');
            for (const row of rows) {
                if (!this.dirty.has(row.node_id)) {
                    this.dirty.add(row.node_id);
                }
            }
        }
    }
}

const key = (row: NodeRow): string => `${row.status}|${row.completed_at}|${JSON.stringify(row.summary)}`;
