// A unified diff of two texts, line by line, as `diff -u` prints it (3 lines of context). The common
// head and tail are set aside first, so a small change in a long file costs little; the rest is a
// longest-common-subsequence table.

export interface DiffLabels {
    from: string;
    to: string;
}

type Op = { kind: ' ' | '-' | '+'; line: string };

const CONTEXT = 3;

const splitLines = (text: string): string[] => {
    if (text === '') {
        return [];
    }

    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') {
        lines.pop();
    }

    return lines;
};

/** The edit script from `a` to `b`. */
const edits = (a: string[], b: string[]): Op[] => {
    let head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) {
        head++;
    }

    let tail = 0;
    while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) {
        tail++;
    }

    const x = a.slice(head, a.length - tail);
    const y = b.slice(head, b.length - tail);
    const width = y.length + 1;
    // lcs[i * width + j]: length of the longest common subsequence of x[i..] and y[j..].
    const lcs = new Uint32Array((x.length + 1) * width);
    for (let i = x.length - 1; i >= 0; i--) {
        for (let j = y.length - 1; j >= 0; j--) {
            lcs[i * width + j] = x[i] === y[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
        }
    }

    const ops: Op[] = a.slice(0, head).map((line) => ({ kind: ' ', line }));
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
        if (i < x.length && j < y.length && x[i] === y[j]) {
            ops.push({ kind: ' ', line: x[i]! });
            i++;
            j++;
        } else if (i < x.length && (j === y.length || lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) {
            // Removals before additions, as diff prints a changed line.
            ops.push({ kind: '-', line: x[i]! });
            i++;
        } else {
            ops.push({ kind: '+', line: y[j]! });
            j++;
        }
    }

    ops.push(...a.slice(a.length - tail).map((line): Op => ({ kind: ' ', line })));
    return ops;
};

const range = (start: number, count: number): string => (count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`);

/** `--- from` / `+++ to` and the hunks; empty when the texts are equal. */
export const unifiedDiff = (before: string, after: string, labels: DiffLabels): string[] => {
    const ops = edits(splitLines(before), splitLines(after));
    const changed = ops.map((op, index) => (op.kind === ' ' ? -1 : index)).filter((index) => index >= 0);
    if (changed.length === 0) {
        return [];
    }

    // Hunks: runs of changes whose context windows touch.
    const hunks: [number, number][] = [];
    for (const index of changed) {
        const last = hunks[hunks.length - 1];
        if (last && index - CONTEXT <= last[1] + CONTEXT) {
            last[1] = index;
        } else {
            hunks.push([index, index]);
        }
    }

    const out = [`--- ${labels.from}`, `+++ ${labels.to}`];
    // Line numbers in each text where op `index` stands.
    const aLine: number[] = [];
    const bLine: number[] = [];
    let aAt = 1;
    let bAt = 1;
    for (const op of ops) {
        aLine.push(aAt);
        bLine.push(bAt);
        if (op.kind !== '+') {
            aAt++;
        }

        if (op.kind !== '-') {
            bAt++;
        }
    }

    for (const [first, last] of hunks) {
        const start = Math.max(0, first - CONTEXT);
        const end = Math.min(ops.length - 1, last + CONTEXT);
        const slice = ops.slice(start, end + 1);
        const aCount = slice.filter((op) => op.kind !== '+').length;
        const bCount = slice.filter((op) => op.kind !== '-').length;
        out.push(`@@ -${range(aLine[start]!, aCount)} +${range(bLine[start]!, bCount)} @@`);
        out.push(...slice.map((op) => `${op.kind}${op.line}`));
    }

    return out;
};
