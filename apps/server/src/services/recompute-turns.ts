import Boom from '@hapi/boom';

// Turns at reading a node output's page again from its upload: seconds of CPU for a large one, so a
// process takes only a few at once. They were refused (503) once two were under way: two accounts
// paging through a large output took both almost all the time, and every other account's pages
// answered 503. Now an account asking while the turns are taken waits for one, behind the accounts
// already waiting; an account whose turn just ended and asks again goes behind them (round-robin).
// Only an account asking while its own page is read or waiting is refused: its own load.

/** A large page takes seconds to read again. */
const RETRY_AFTER_SECONDS = 2;

const busy = (error: Boom.Boom): Boom.Boom => {
    error.output.headers['Retry-After'] = String(RETRY_AFTER_SECONDS);
    return error;
};

export interface RecomputeTurns {
    /** Waits for a turn; resolves with the function that ends it. */
    take(accountId: string, signal?: AbortSignal): Promise<() => void>;
    /** Accounts waiting for a turn. */
    readonly waiting: number;
}

/** `slots` turns at once, one per account; at most `maxWaiting` accounts wait, beyond that 503. */
export const createRecomputeTurns = (slots: number, maxWaiting: number): RecomputeTurns => {
    const holding = new Set<string>();
    /** In the order they asked. */
    const waiting = new Map<string, () => void>();

    const ender = (accountId: string) => {
        let ended = false;
        return () => {
            if (ended) {
                return;
            }

            ended = true;
            holding.delete(accountId);
            const [next] = waiting;
            if (next) {
                const [nextAccount, start] = next;
                waiting.delete(nextAccount);
                holding.add(nextAccount);
                start();
            }
        };
    };

    return {
        get waiting() {
            return waiting.size;
        },
        async take(accountId, signal) {
            signal?.throwIfAborted();
            if (holding.has(accountId) || waiting.has(accountId)) {
                throw busy(
                    Boom.tooManyRequests(
                        'Another page of a node output of this account is being read again from its upload (one at a time per account): ask again when it has been answered'
                    )
                );
            }

            if (holding.size < slots && waiting.size === 0) {
                holding.add(accountId);
                return ender(accountId);
            }

            if (waiting.size >= maxWaiting) {
                throw busy(Boom.serverUnavailable(`Pages of node outputs of ${maxWaiting} accounts wait to be read again from their uploads: ask again in a moment`));
            }

            await new Promise<void>((resolve, reject) => {
                const abandon = () => {
                    waiting.delete(accountId);
                    reject(signal?.reason);
                };
                waiting.set(accountId, () => {
                    signal?.removeEventListener('abort', abandon);
                    resolve();
                });
                signal?.addEventListener('abort', abandon, { once: true });
            });
            return ender(accountId);
        }
    };
};
