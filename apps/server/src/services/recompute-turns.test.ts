import { describe, expect, it } from 'vitest';

import { createRecomputeTurns } from './recompute-turns.js';

const statusOf = (promise: Promise<unknown>) => promise.then(
    () => 'taken',
    (err: { output?: { statusCode: number } }) => err.output?.statusCode ?? err
);

describe('recompute turns', () => {
    it('hands freed turns to the accounts waiting, in the order they asked, before an account asking again', async () => {
        const turns = createRecomputeTurns(2, 10);
        const started: string[] = [];
        const take = (accountId: string) => turns.take(accountId).then((end) => {
            started.push(accountId);
            return end;
        });

        const endA = await take('a');
        const endB = await take('b');
        const c = take('c');
        const d = take('d');
        expect(turns.waiting).toBe(2);
        expect(await statusOf(turns.take('a'))).toBe(429);
        expect(await statusOf(turns.take('c'))).toBe(429);

        endA();
        // A, whose turn just ended, asks again at once: behind C and D.
        const again = take('a');
        const endC = await c;
        endB();
        const endD = await d;
        endC();
        const endAgain = await again;
        expect(started).toEqual(['a', 'b', 'c', 'd', 'a']);
        endD();
        endAgain();
        expect(turns.waiting).toBe(0);
        (await take('e'))();
    });

    it('answers 503 only past the accounts that may wait, and forgets one whose asker left', async () => {
        const turns = createRecomputeTurns(1, 1);
        const end = await turns.take('a');
        const left = new AbortController();
        const b = statusOf(turns.take('b', left.signal));
        expect(await statusOf(turns.take('c'))).toBe(503);
        left.abort(new Error('gone'));
        expect(await b).toEqual(new Error('gone'));
        const c = turns.take('c');
        expect(turns.waiting).toBe(1);
        end();
        (await c)();
    });
});
