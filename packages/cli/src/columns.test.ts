import { describe, expect, it } from 'vitest';

import { csvHeader, namePattern } from './columns.js';

describe('csvHeader', () => {
    it('reads the header row as the server does: BOM dropped, names trimmed, quotes understood', () => {
        expect(csvHeader('\uFEFFname, email ,"age"\r\nAda,a@x,3\n')).toEqual(['name', 'email', 'age']);
        expect(csvHeader('\n\n"First, Last","say ""hi""","two\nlines"\nx,y,z')).toEqual(['First, Last', 'say "hi"', 'two\nlines']);
        expect(csvHeader('only')).toEqual(['only']);
        expect(csvHeader('')).toBeNull();
        expect(csvHeader('"never closed')).toBeNull();
    });
});

describe('namePattern', () => {
    it('finds a template reference with spaces, and a bare filter name but not a string or a longer name', () => {
        expect('Hi {{ item . nmae }}!'.search(namePattern('nodes[3].data.subject', 'nmae'))).toBe(3);
        expect('{{item.a.b}}'.search(namePattern('nodes[3].data.body', 'a.b'))).toBe(0);
        const expr = namePattern('nodes[2].data.expr', 'age');
        expect("name == 'age' && ages > 1 && age > 2".search(expr)).toBe(29);
    });
});
