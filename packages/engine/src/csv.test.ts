import { describe, expect, it } from 'vitest';
import { typeCsvRow, typeCsvValue } from './csv.js';

describe('typeCsvValue', () => {
    it('types integers and plain decimals as numbers', () => {
        const cases: Array<[string, number]> = [
            ['0', 0],
            ['42', 42],
            ['-7', -7],
            ['-0', 0],
            ['3.14', 3.14],
            ['-0.5', -0.5],
            ['0.5', 0.5],
            ['10.50', 10.5],
            ['9007199254740991', Number.MAX_SAFE_INTEGER],
            ['123456789.012345', 123456789.012345],
            [' 42 ', 42]
        ];
        for (const [raw, expected] of cases) expect(typeCsvValue(raw), raw).toBe(expected);
        expect(Object.is(typeCsvValue('-0'), 0)).toBe(true);
    });

    it('keeps everything that is not plainly a number as the original string', () => {
        for (const raw of [
            '007',
            '-007',
            '00.5',
            '+5',
            '+33612345678',
            '.5',
            '5.',
            '1e3',
            '1E10',
            '0x1F',
            '1,000',
            '1 000',
            '1_000',
            'NaN',
            'Infinity',
            '-Infinity',
            '9007199254740993',
            '12345678901234567890',
            '0.1234567890123456',
            '12.5%',
            '$5',
            '5-3',
            '--5',
            '- 5',
            '３',
            'abc',
            'null',
            'yes',
            ' padded text '
        ]) {
            expect(typeCsvValue(raw), raw).toBe(raw);
        }
    });

    it('types true/false in any case as booleans', () => {
        for (const raw of ['true', 'TRUE', 'True', ' tRuE ']) expect(typeCsvValue(raw), raw).toBe(true);
        for (const raw of ['false', 'FALSE', 'False']) expect(typeCsvValue(raw), raw).toBe(false);
        for (const raw of ['t', 'f', 'yes', 'no', 'truthy', 'falsey']) expect(typeCsvValue(raw), raw).toBe(raw);
    });

    it('types empty and whitespace-only cells as null', () => {
        expect(typeCsvValue('')).toBeNull();
        expect(typeCsvValue('   ')).toBeNull();
        expect(typeCsvValue('\t\r\n')).toBeNull();
    });
});

describe('typeCsvRow', () => {
    it('keys typed cells by header, with null for missing cells and extra cells ignored', () => {
        expect(typeCsvRow(['name', 'age', 'active', 'note'], ['Ann', '34', 'TRUE'])).toEqual({
            name: 'Ann',
            age: 34,
            active: true,
            note: null
        });
        expect(typeCsvRow(['a'], ['1', '2', '3'])).toEqual({ a: 1 });
    });

    it('keeps headers verbatim, including ones that collide with Object.prototype', () => {
        const row = typeCsvRow(['First Name', '__proto__', 'constructor'], ['Zoë', 'x', '1']);
        expect(Object.keys(row)).toEqual(['First Name', '__proto__', 'constructor']);
        expect(Object.hasOwn(row, '__proto__')).toBe(true);
        expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('x');
        expect(row.constructor).toBe(1);
        expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    });
});
