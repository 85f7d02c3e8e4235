import Fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { MAIN } from './child.js';
import { cluster, copiesByRecipient, ROWS } from './interruptions-cluster.js';
import { startGatedSmtp } from './gated-smtp.js';

// Issue 20 §1: a run survives any number of interruptions that made progress (the cluster of real
// worker processes, SIGKILLed while the SMTP server holds a message: interruptions-cluster.ts; the
// crash loop: runs-interruptions-crash-loop.test.ts).

describe('runs: interruptions', { timeout: 400_000 }, () => {
    it('finishes a run whose worker is killed 4 times while it makes progress: every row arrives, duplicates flagged', async () => {
        expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
        const smtp = await startGatedSmtp();
        const c = await cluster(smtp);
        try {
            // Each worker sends 3 e-mails, then dies while the server accepts its fourth.
            let held = smtp.holdAt(smtp.received + 4);
            await c.startWorker();
            const runId = await c.client().enqueue(c.workflowId);
            for (let kill = 0; kill < 4; kill++) {
                const message = await c.heldOrEnded(held, runId);
                if (kill < 3) {
                    held = smtp.holdAt(smtp.received + 4);
                }

                await c.killAt(message);
                await c.startWorker();
            }

            const run = await c.waitFor(runId);
            expect(run.error).toBeNull();
            expect(run.status).toBe('SUCCESS');
            // The e-mail under way at each kill was sent again with its Message-ID, and flagged.
            expect(run.result).toEqual({ totalRows: ROWS, filteredOut: 0, emailsSent: ROWS, possiblyDuplicated: 4 });
            const copies = copiesByRecipient(smtp.accepted);
            expect(new Set(copies.keys())).toEqual(new Set(c.recipients));
            expect([...copies.values()].filter((n) => n > 1)).toEqual([2, 2, 2, 2]);
            expect(new Set(smtp.accepted.map((m) => m.messageId)).size).toBe(ROWS);
        } finally {
            await c.close();
            await smtp.close();
        }
    });
});
