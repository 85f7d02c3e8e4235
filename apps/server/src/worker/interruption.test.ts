import { describe, expect, it } from 'vitest';

import { describeInterruption, noteInterruption } from './interruption.js';
import { LeaseLost } from './lease.js';

const withCode = (message: string, code?: string, cause?: unknown) => Object.assign(new Error(message, cause ? { cause } : {}), code ? { code } : {});

// The reason a given-up run shows names what happened, not "its worker stopped" for every cause.
describe('describeInterruption', () => {
    it('names a full disk, from PostgreSQL (53100), from the file system (ENOSPC) or from a wrapper\'s cause', () => {
        expect(describeInterruption(withCode('could not extend file "base/16384/2619": No space left on device', '53100'))).toBe('the disk is full: the store could not write');
        expect(describeInterruption(withCode('ENOSPC: no space left on device, write', 'ENOSPC'))).toBe('the disk is full: the store could not write');
        expect(describeInterruption(new Error('saving the node states failed', { cause: withCode('write failed', 'ENOSPC') }))).toBe('the disk is full: the store could not write');
    });

    it('names a store that could not be reached, with its message', () => {
        expect(describeInterruption(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe('the store was unreachable (connect ECONNREFUSED 127.0.0.1:5432)');
        expect(describeInterruption(withCode('terminating connection due to administrator command', '57P01'))).toMatch(/^the store was unreachable \(terminating connection/);
        expect(describeInterruption(new Error('Connection terminated unexpectedly'))).toBe('the store was unreachable (Connection terminated unexpectedly)');
        expect(describeInterruption(withCode('could not connect', '08006'))).toBe('the store was unreachable (could not connect)');
    });

    it('names a lost lease, and any other store error as it was', () => {
        expect(describeInterruption(new LeaseLost('wf_1'))).toBe('its worker lost the lease (it was paused, or the store answered too slowly)');
        expect(describeInterruption(withCode('duplicate key value violates unique constraint', '23505'))).toBe('the store failed (duplicate key value violates unique constraint)');
        expect(describeInterruption('plain text')).toBe('the store failed (plain text)');
    });
});

describe('noteInterruption', () => {
    it('keeps the latest reason per run, and forgets the oldest run first once it holds 10,000', () => {
        const notes = new Map<string, string>();
        noteInterruption(notes, 'run_0', new LeaseLost('wf'));
        noteInterruption(notes, 'run_0', withCode('ENOSPC: no space left on device', 'ENOSPC'));
        expect(notes.get('run_0')).toBe('the disk is full: the store could not write');
        for (let i = 1; i < 10_001; i++) noteInterruption(notes, `run_${i}`, new LeaseLost('wf'));
        expect(notes.size).toBe(10_000);
        expect(notes.has('run_0')).toBe(false);
        expect(notes.has('run_10000')).toBe(true);
    });
});
