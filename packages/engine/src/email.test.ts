import { describe, expect, it } from 'vitest';
import { emailAddressProblem, isValidEmailAddress } from './email.js';

describe('isValidEmailAddress', () => {
    it('accepts ordinary addresses', () => {
        for (const address of [
            'ann@example.com',
            'first.last+tag@sub.example.co.uk',
            "o'brien@example.ie",
            'user_1-x@my-domain.io',
            'root@localhost',
            'zoë@exämple.de',
            'a@b.cd'
        ]) {
            expect(isValidEmailAddress(address), address).toBe(true);
        }
    });

    it('rejects anything that is not exactly one plain address', () => {
        for (const address of [
            '',
            ' ann@example.com',
            'ann@example.com ',
            'bob@',
            '@example.com',
            'bob',
            'bob@example',
            'bob@@example.com',
            'a@b@example.com',
            'ann@example.com, bob@example.com',
            'ann@example.com;bob@example.com',
            'Ann <ann@example.com>',
            'ann smith@example.com',
            'ann@exa mple.com',
            'ann@-example.com',
            'ann@example-.com',
            'ann@example..com',
            'ann@.example.com',
            '.ann@example.com',
            'ann.@example.com',
            'a..b@example.com',
            'ann@1.2.3.4',
            'ann@[1.2.3.4]',
            '"ann"@example.com',
            'ann\n@example.com',
            'ann@example.com\r\nBcc: x@y.z',
            `${'a'.repeat(65)}@example.com`,
            `a@${'b'.repeat(250)}.com`
        ]) {
            expect(isValidEmailAddress(address), JSON.stringify(address)).toBe(false);
        }
    });

    it('explains why', () => {
        expect(emailAddressProblem('')).toBe('empty recipient address');
        expect(emailAddressProblem('a@x.com,b@x.com')).toBe('only one recipient address is allowed');
        expect(emailAddressProblem('Ann <a@x.com>')).toMatch(/without a display name/);
        expect(emailAddressProblem('bob@')).toBe('the domain is invalid');
        expect(emailAddressProblem('bob')).toBe("an address needs exactly one '@'");
    });
});
