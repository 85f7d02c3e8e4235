import fc from 'fast-check';
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

// Independent of the implementation: the noncharacters are U+FDD0–U+FDEF and the last two code points of every plane.
const isNoncharacter = (cp: number) => (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;

/** Every code point an address must not hide: default-ignorable, format (Cf) or noncharacter. */
const invisible: number[] = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const char = String.fromCodePoint(cp);
    if (/\p{Default_Ignorable_Code_Point}|\p{Cf}/u.test(char) || isNoncharacter(cp)) invisible.push(cp);
}

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** Property: any of `codePoints` put anywhere in a valid address makes it invalid. */
const refusedAnywhere = (codePoints: number[]) =>
    fc.assert(
        fc.property(
            fc.constantFrom(...codePoints),
            fc.constantFrom('ann@example.com', 'zoë@exämple.de', 'first.last+tag@sub.example.co.uk', 'root@localhost'),
            fc.nat(),
            (cp, address, at) => {
                const where = at % (address.length + 1);
                const tainted = address.slice(0, where) + String.fromCodePoint(cp) + address.slice(where);
                expect(isValidEmailAddress(tainted), `${hex(cp)} in ${JSON.stringify(tainted)}`).toBe(false);
            }
        ),
        { numRuns: 2000 }
    );

describe('invisible characters in addresses', () => {
    it('refuses the ones reported, naming the code point', () => {
        for (const cp of [0x061c, 0x180e, 0x00ad, 0x034f, 0xffff, 0x200c, 0x1d173, 0xe0001, 0x10fffe]) {
            for (const address of [`an${String.fromCodePoint(cp)}n@example.com`, `ann@exam${String.fromCodePoint(cp)}ple.com`]) {
                expect(emailAddressProblem(address), hex(cp)).toBe(`the address contains an invisible or formatting character (${hex(cp)}): type it again`);
            }
        }
    });

    it('refuses every default-ignorable, format or noncharacter code point, wherever it stands', () => {
        expect(invisible.length).toBeGreaterThan(4000);
        refusedAnywhere(invisible);
        // And every one of them in the local part, where nothing else would refuse most.
        for (const cp of invisible) {
            expect(isValidEmailAddress(`a${String.fromCodePoint(cp)}b@example.com`), hex(cp)).toBe(false);
        }
    });

    it('still accepts letters, marks and digits of any script', () => {
        fc.assert(
            fc.property(fc.stringMatching(/^[\p{L}\p{M}\p{N}]{1,10}$/u), (local) => {
                fc.pre(![...local].some((char) => invisible.includes(char.codePointAt(0)!)));
                expect(isValidEmailAddress(`${local}@example.com`), JSON.stringify(local)).toBe(true);
            }),
            { numRuns: 500 }
        );
    });
});

/** Every space separator (Zs, Zl, Zp) and control character (Cc): each would split or bend a To header. */
const separatorsAndControls: number[] = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (/[\p{Z}\p{Cc}]/u.test(String.fromCodePoint(cp))) separatorsAndControls.push(cp);
}

describe('space separators and control characters in addresses', () => {
    it('refuses every one, wherever it stands', () => {
        // U+00A0, U+1680, U+2003, U+2028, U+3000 and U+0085 (NEL) were accepted at sign-up and bent the To header.
        for (const cp of [0x00a0, 0x1680, 0x2003, 0x2028, 0x3000, 0x0085]) expect(separatorsAndControls, hex(cp)).toContain(cp);
        refusedAnywhere(separatorsAndControls);
        for (const cp of separatorsAndControls) {
            for (const address of [`x${String.fromCodePoint(cp)}y@example.com`, `xy@exam${String.fromCodePoint(cp)}ple.com`]) {
                expect(isValidEmailAddress(address), `${hex(cp)} in ${JSON.stringify(address)}`).toBe(false);
            }
        }
    });
});
