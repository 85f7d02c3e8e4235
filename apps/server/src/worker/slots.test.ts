import { describe, expect, it } from 'vitest';

import { RunSlots, SlotHold } from './slots.js';

/** Acquires for each account in turn, noting the order the grants come in. */
const queueUp = (slots: RunSlots, accounts: string[], granted: string[]) => accounts.map((account) => slots.acquire(account).then(() => granted.push(account)));

describe('run slots', () => {
    it('an account alone gets every slot at once', async () => {
        const slots = new RunSlots(4);
        await Promise.all([1, 2, 3, 4].map(() => slots.acquire('a')));
        expect(slots.held).toBe(4);
        expect(slots.othersWaiting('a')).toBe(false);
    });

    it('when slots are all held, freed ones go round-robin across the accounts waiting, each in its order', async () => {
        const slots = new RunSlots(2);
        await slots.acquire('a');
        await slots.acquire('a');
        const granted: string[] = [];
        // A floods first; B and C come later with one run each.
        const waits = queueUp(slots, ['a', 'a', 'a', 'b', 'c', 'b'], granted);
        expect(slots.othersWaiting('a')).toBe(true);
        for (let i = 0; i < 6; i++) {
            slots.release();
            await Promise.resolve();
        }

        await Promise.all(waits);
        expect(granted).toEqual(['a', 'b', 'c', 'a', 'b', 'a']);
    });

    it("a slot freed by an account goes to another account waiting, though the freeing account's runs queued first", async () => {
        const slots = new RunSlots(1);
        const a = new SlotHold(slots, 'a');
        await a.take();
        const granted: string[] = [];
        // A's other runs wait for the slot A holds; then B's run comes.
        const waits = queueUp(slots, ['a', 'a', 'b'], granted);
        a.close();
        await Promise.resolve();
        expect(granted).toEqual(['b']);
        for (let i = 0; i < 2; i++) {
            slots.release();
            await Promise.resolve();
        }

        await Promise.all(waits);
        expect(granted).toEqual(['b', 'a', 'a']);
    });

    it('a run waiting on the network holds no slot, and takes one again (in turn) before it goes on', async () => {
        const slots = new RunSlots(1);
        const a = new SlotHold(slots, 'a');
        await a.take();
        let answer: (value: string) => void = () => {};
        const reply = a.waitOn(() => new Promise<string>((resolve) => (answer = resolve)));
        expect(slots.held).toBe(0);

        // Another account's run starts and computes while A waits.
        const b = new SlotHold(slots, 'b');
        await b.take();
        answer('done');
        let back = false;
        void reply.then(() => (back = true));
        await Promise.resolve();
        expect(back).toBe(false);
        b.close();
        expect(await reply).toBe('done');
        expect(a.held).toBe(true);
        a.close();
        expect(slots.held).toBe(0);
    });

    it('a run that ends while on its way to a slot gives it back when it comes', async () => {
        const slots = new RunSlots(1);
        const b = new SlotHold(slots, 'b');
        await b.take();
        const a = new SlotHold(slots, 'a');
        const taking = a.take();
        a.close();
        b.close();
        await taking;
        expect(slots.held).toBe(0);
    });
});
