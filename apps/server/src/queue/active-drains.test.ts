import { describe, expect, it } from 'vitest';

import { ActiveDrains } from './active-drains.js';

const settled = async (promise: Promise<unknown> | null) => {
    let done = false;
    void promise?.then(() => {
        done = true;
    });
    // Let every resolution already due run.
    await new Promise((resolve) => setImmediate(resolve));
    return done;
};

describe('ActiveDrains', () => {
    it('a new drain waits for the one it replaces, which is told to stop', async () => {
        const drains = new ActiveDrains();
        let stopped = 0;
        const first = drains.enter('wf_1', () => stopped++);
        const second = drains.enter('wf_1', () => {});
        expect(first.previous).toBeNull();
        expect(stopped).toBe(1);
        expect(await settled(second.previous)).toBe(false);
        first.leave();
        expect(await settled(second.previous)).toBe(true);
    });

    it('a third drain waits for the first as well, when the second left before the first stopped', async () => {
        // The first drain lost its lease and still executes; the second, waiting for it, lost its
        // lease in turn and gave up; the third must not claim the run while the first executes it.
        const drains = new ActiveDrains();
        const first = drains.enter('wf_1', () => {});
        const second = drains.enter('wf_1', () => {});
        const third = drains.enter('wf_1', () => {});
        second.leave();
        expect(await settled(third.previous)).toBe(false);
        first.leave();
        expect(await settled(third.previous)).toBe(true);
    });

    it("says while a drain is taking a workflow's lease, until its take settles, failed or not", async () => {
        const drains = new ActiveDrains();
        let answer!: (held: boolean) => void;
        const taking = drains.takingLease('wf_1', () => new Promise<boolean>((resolve) => (answer = resolve)));
        const failing = drains.takingLease('wf_1', async () => {
            throw new Error('the store failed');
        });
        expect(drains.isTakingLease('wf_1')).toBe(true);
        expect(drains.isTakingLease('wf_2')).toBe(false);
        await expect(failing).rejects.toThrow('the store failed');
        expect(drains.isTakingLease('wf_1')).toBe(true);
        answer(true);
        expect(await taking).toBe(true);
        expect(drains.isTakingLease('wf_1')).toBe(false);
    });

    it('drains of other workflows do not wait for each other', () => {
        const drains = new ActiveDrains();
        drains.enter('wf_1', () => {});
        expect(drains.enter('wf_2', () => {}).previous).toBeNull();
    });
});
