import { describe, expect, it } from 'vitest';

import { unifiedDiff } from './unified-diff.js';

const labels = { from: 'a', to: 'b' };

describe('unifiedDiff', () => {
    it('is empty for equal texts', () => {
        expect(unifiedDiff('x\ny\n', 'x\ny\n', labels)).toEqual([]);
    });

    it('prints hunks with three lines of context, as diff -u', () => {
        const before = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
        const after = before.replace('line 2\n', 'line two\n').replace('line 11', 'line eleven');
        expect(unifiedDiff(before, after, labels)).toEqual([
            '--- a',
            '+++ b',
            '@@ -1,5 +1,5 @@',
            ' line 1',
            '-line 2',
            '+line two',
            ' line 3',
            ' line 4',
            ' line 5',
            '@@ -8,5 +8,5 @@',
            ' line 8',
            ' line 9',
            ' line 10',
            '-line 11',
            '+line eleven',
            ' line 12'
        ]);
    });

    it('shows a new file as all added, against nothing', () => {
        expect(unifiedDiff('', 'a\nb\n', { from: '/dev/null', to: 'new.yaml' })).toEqual(['--- /dev/null', '+++ new.yaml', '@@ -0,0 +1,2 @@', '+a', '+b']);
    });

    it('keeps lines moved among others in order', () => {
        expect(unifiedDiff('a\nb\nc\n', 'a\nc\nb\n', labels)).toEqual(['--- a', '+++ b', '@@ -1,3 +1,3 @@', ' a', '-b', ' c', '+b']);
    });
});
