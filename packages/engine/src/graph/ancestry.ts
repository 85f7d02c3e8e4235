// Answers many "is A upstream of B?" questions in one pass. Per-question searches would be
// quadratic on long chains (10,000 nodes each reading the first one); instead, nodes are visited once
// in topological order per batch of up to 2,048 distinct A's, propagating one bit per A along edges.

import type { IndexedGraph } from './topo.js';

const MAX_BATCH = 2048;

interface Question {
    ancestor: number;
    descendant: number;
    onNo: () => void;
}

export class Ancestry {
    private readonly questions: Question[] = [];

    constructor(
        private readonly graph: IndexedGraph,
        /** Topological order; questions about nodes missing from it (on or after a cycle) get no answer. */
        private readonly order: readonly number[]
    ) {}

    /** Queues a question; `onNo` runs during resolve() when `ancestor` is not upstream of `descendant`. */
    ask(ancestor: number, descendant: number, onNo: () => void): void {
        this.questions.push({ ancestor, descendant, onNo });
    }

    resolve(): void {
        const { size, predecessors } = this.graph;
        const ordered = new Uint8Array(size);
        for (const v of this.order) ordered[v] = 1;
        const direct = new Set<number>();
        predecessors.forEach((list, d) => {
            for (const a of list) direct.add(a * size + d);
        });
        const pending = this.questions.filter(
            (q) =>
                ordered[q.ancestor] &&
                ordered[q.descendant] &&
                q.ancestor !== q.descendant &&
                !direct.has(q.ancestor * size + q.descendant)
        );
        const ancestors = [...new Set(pending.map((q) => q.ancestor))];
        for (let from = 0; from < ancestors.length; from += MAX_BATCH) {
            const batch = ancestors.slice(from, from + MAX_BATCH);
            const words = Math.ceil(batch.length / 32);
            const reach = this.propagate(batch, words);
            const bitOf = new Map(batch.map((a, i) => [a, i]));
            for (const q of pending) {
                const bit = bitOf.get(q.ancestor);
                if (bit === undefined) continue;
                const word = reach[q.descendant * words + (bit >> 5)] as number;
                if ((word & (1 << (bit & 31))) === 0) q.onNo();
            }
        }
    }

    /** reach[v] has bit i set when batch[i] is v or upstream of v. */
    private propagate(batch: number[], words: number): Uint32Array {
        const reach = new Uint32Array(this.graph.size * words);
        batch.forEach((a, i) => {
            const at = a * words + (i >> 5);
            reach[at] = (reach[at] as number) | (1 << (i & 31));
        });
        for (const v of this.order) {
            const base = v * words;
            for (const p of this.graph.predecessors[v] as number[]) {
                const from = p * words;
                for (let w = 0; w < words; w++) reach[base + w] = (reach[base + w] as number) | (reach[from + w] as number);
            }
        }
        return reach;
    }
}
