import { describe, expect, it } from 'vitest';

import { newId, randomBytes } from './ids.js';

describe('ids', () => {
    it('hands out pooled random bytes once: slices do not repeat, nor change once handed out', () => {
        const first = randomBytes(20);
        const copy = Buffer.from(first);
        const seen = new Set<string>([copy.toString('hex')]);
        // Past several pools' worth, and a request larger than a pool.
        for (let i = 0; i < 1_000; i++) {
            seen.add(randomBytes(20).toString('hex'));
        }

        expect(randomBytes(10_000)).toHaveLength(10_000);
        expect(seen.size).toBe(1_001);
        expect(first.equals(copy)).toBe(true);
    });

    it('makes prefixed ids of 20 base-36 characters, none twice', () => {
        const ids = Array.from({ length: 10_000 }, () => newId('run'));
        expect(ids.every((id) => /^run_[0-9a-z]{20}$/.test(id))).toBe(true);
        expect(new Set(ids).size).toBe(ids.length);
    });
});
