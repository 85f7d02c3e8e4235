import { describe, expect, it } from 'vitest';

import { visible } from './visible.js';

describe('visible()', () => {
    it('shows escape sequences, carriage returns and bidi overrides instead of passing them to the terminal', () => {
        expect(visible('a\u001b]52;c;ZXZpbA==\u0007b')).toBe('a^[]52;c;ZXZpbA==^Gb');
        expect(visible('ok\rFAKE')).toBe('ok^MFAKE');
        expect(visible('\u001b[2J\u001b[H')).toBe('^[[2J^[[H');
        expect(visible('invoice\u202Efdp.exe')).toBe('invoice<U+202E>fdp.exe');
        expect(visible('\u009b31m')).toBe('<U+009B>31m');
        expect(visible('x\u007fy\u0000')).toBe('x^?y^@');
    });

    it('keeps newlines, tabs, colours and ordinary text of any script', () => {
        const text = '\u001b[32m✓\u001b[0m Zoë\tданные 数据\nנתונים';
        expect(visible(text)).toBe(text);
    });
});
