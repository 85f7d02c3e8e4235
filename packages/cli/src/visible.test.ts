import { describe, expect, it } from 'vitest';

import { inline, message, visible } from './visible.js';

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

    it('shows zero-width characters and line/paragraph separators, which would hide or break text', () => {
        expect(visible('pay\u200bpal\u2028next\u2029para\ufeff')).toBe('pay<U+200B>pal<U+2028>next<U+2029>para<U+FEFF>');
    });
});

describe('inline(): server text for one line (a name, a table cell)', () => {
    it('shows a newline, a tab and a carriage return, so a name cannot forge another line or row', () => {
        expect(inline('a\nforged row')).toBe('a^Jforged row');
        expect(inline('a\r\n\tb')).toBe('a^M^J^Ib');
    });

    it('shows colour sequences too: conceal (SGR 8) cannot hide what follows, nor a colour pass for the CLI own', () => {
        expect(inline('cell \u001b[8mhidden\u001b[0m')).toBe('cell ^[[8mhidden^[[0m');
        expect(inline('\u001b[32m✓\u001b[0m ok')).toBe('^[[32m✓^[[0m ok');
    });

    it('shows what visible() shows, plus zero-width and separator characters; ordinary text of any script stays', () => {
        expect(inline('Hostile \u001b]0;pwned\u0007 \u202Etxt.exe')).toBe('Hostile ^[]0;pwned^G <U+202E>txt.exe');
        expect(inline('a\u200bb\u2028c\u2029d\u00ade')).toBe('a<U+200B>b<U+2028>c<U+2029>d<U+00AD>e');
        expect(inline('Zoë данные 数据 נתונים')).toBe('Zoë данные 数据 נתונים');
    });
});

describe('message(): a server message that may have several lines', () => {
    it('keeps its lines, each shown as inline() does, every further line marked as its continuation', () => {
        expect(message('bad row 2\n\u001b[8mhidden\n✓ send (OUTPUT) 1s')).toBe('bad row 2\n  | ^[[8mhidden\n  | ✓ send (OUTPUT) 1s');
        expect(message('one line')).toBe('one line');
    });
});
