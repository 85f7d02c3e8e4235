// Graph algorithms over dense integer indices, shared by the validator and the planner. All are
// iterative and linear (or n log n), so a 10,000-node chain neither overflows the stack nor stalls.

export interface IndexedGraph {
    size: number;
    successors: number[][];
    predecessors: number[][];
}

export function emptyIndexedGraph(size: number): IndexedGraph {
    return {
        size,
        successors: Array.from({ length: size }, () => []),
        predecessors: Array.from({ length: size }, () => [])
    };
}

/**
 * Kahn's algorithm. Among the nodes ready at any moment, the one with the smallest index goes first,
 * so the order is stable and follows the order in which nodes were written.
 * Nodes on or downstream of a cycle are missing from the result.
 */
export function topologicalOrder(graph: IndexedGraph): number[] {
    const inDegree = new Int32Array(graph.size);
    for (let v = 0; v < graph.size; v++) inDegree[v] = (graph.predecessors[v] as number[]).length;
    const ready = new MinHeap();
    for (let v = 0; v < graph.size; v++) if (inDegree[v] === 0) ready.push(v);
    const order: number[] = [];
    while (ready.size > 0) {
        const v = ready.pop();
        order.push(v);
        for (const w of graph.successors[v] as number[]) {
            if (--(inDegree[w] as number) === 0) ready.push(w);
        }
    }
    return order;
}

/**
 * One cycle per group of nodes Kahn could not order, each in edge order and rotated to start at its
 * smallest index. Every unordered node has an unordered predecessor, so walking predecessors from
 * it must come back to a node already on the walk.
 */
export function findCycles(graph: IndexedGraph, ordered: readonly number[]): number[][] {
    const done = new Uint8Array(graph.size);
    for (const v of ordered) done[v] = 1;
    const walkOf = new Int32Array(graph.size); // 0 = not visited, else the id of the walk that visited
    const positionOnWalk = new Int32Array(graph.size);
    const cycles: number[][] = [];
    let walk = 0;
    for (let start = 0; start < graph.size; start++) {
        if (done[start] || walkOf[start] !== 0) continue;
        walk++;
        const path: number[] = [];
        let v: number | undefined = start;
        while (v !== undefined && walkOf[v] === 0) {
            walkOf[v] = walk;
            positionOnWalk[v] = path.length;
            path.push(v);
            v = (graph.predecessors[v] as number[]).find((p) => !done[p]);
        }
        if (v !== undefined && walkOf[v] === walk) cycles.push(rotate(path.slice(positionOnWalk[v]).reverse()));
    }
    return cycles;
}

function rotate(cycle: number[]): number[] {
    let smallest = 0;
    for (let i = 1; i < cycle.length; i++) if ((cycle[i] as number) < (cycle[smallest] as number)) smallest = i;
    return [...cycle.slice(smallest), ...cycle.slice(0, smallest)];
}

/** Nodes reachable from `start` along edges, `start` included. */
export function reachableFrom(graph: IndexedGraph, start: number): Uint8Array {
    const seen = new Uint8Array(graph.size);
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
        const v = stack.pop() as number;
        for (const w of graph.successors[v] as number[]) {
            if (!seen[w]) {
                seen[w] = 1;
                stack.push(w);
            }
        }
    }
    return seen;
}

class MinHeap {
    private readonly items: number[] = [];

    get size(): number {
        return this.items.length;
    }

    push(value: number): void {
        const items = this.items;
        items.push(value);
        let i = items.length - 1;
        while (i > 0) {
            const parent = (i - 1) >> 1;
            if ((items[parent] as number) <= value) break;
            items[i] = items[parent] as number;
            i = parent;
        }
        items[i] = value;
    }

    pop(): number {
        const items = this.items;
        const top = items[0] as number;
        const last = items.pop() as number;
        if (items.length > 0) {
            let i = 0;
            for (;;) {
                const left = 2 * i + 1;
                if (left >= items.length) break;
                const right = left + 1;
                const child =
                    right < items.length && (items[right] as number) < (items[left] as number) ? right : left;
                if ((items[child] as number) >= last) break;
                items[i] = items[child] as number;
                i = child;
            }
            items[i] = last;
        }
        return top;
    }
}
