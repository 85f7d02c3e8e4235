import Fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { MAIN } from './child.js';
import { cluster, copiesByRecipient, ROWS } from './interruptions-cluster.js';
import { startGatedSmtp } from './gated-smtp.js';

// Issue 20 §1: a run given up after a crash loop leaves exactly its unsent rows to POST …/retry (the
// cluster: interruptions-cluster.ts).

describe('runs: interruptions', { timeout: 400_000 }, () => {
    it('gives a run up after 3 interruptions in a row without a new e-mail, and its retry sends exactly the rows never accepted', async () => {
        expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
        const smtp = await startGatedSmtp();
        const c = await cluster(smtp);
        try {
            // The first worker sends 5 e-mails and dies on the sixth: progress, no strike.
            let held = smtp.holdAt(smtp.received + 6);
            await c.startWorker();
            const runId = await c.client().enqueue(c.workflowId);
            // Then three workers in a row die on their first e-mail: a crash loop.
            for (let kill = 0; kill < 4; kill++) {
                const message = await c.heldOrEnded(held, runId);
                if (kill < 3) {
                    held = smtp.holdAt(smtp.received + 1);
                }

                await c.killAt(message);
                await c.startWorker();
            }

            const failed = await c.waitFor(runId);
            expect(failed.status).toBe('FAILED');
            expect(failed.error).toMatch(
                /^the run was interrupted 3 times in a row without sending a new e-mail \(last: its worker stopped \(killed, or crashed\)\), so it is not tried again; retry it/
            );
            expect(failed.result.emailsSent).toBe(5);
            // The OUTPUT node's figure comes from the same records as the run's.
            expect(failed.nodes.find((n) => n.nodeId === 'send')).toMatchObject({ status: 'FAILED', output: { emailsSent: 5 } });
            // The e-mail the last worker left unanswered may have arrived: counted apart, and not retried.
            expect(failed.result.unknownOutcome).toBe(1);
            expect(failed.nodes.find((n) => n.nodeId === 'send')?.output).toMatchObject({ unknownOutcome: 1 });
            const before = copiesByRecipient(smtp.accepted);
            expect(before.size).toBeLessThan(ROWS);

            const retry = await c.client().retry(runId);
            expect(retry.status, JSON.stringify(retry.json)).toBe(202);
            const retried = await c.waitFor(retry.json.runId);
            expect(retried).toMatchObject({ status: 'SUCCESS', retryOf: runId, error: null });
            // Exactly the rows the server had not accepted, each once; none it had.
            const fromRetry = smtp.accepted.filter((m) => m.messageId.startsWith(`<${retried.runId}.`));
            expect(fromRetry.map((m) => m.to).sort()).toEqual(c.recipients.filter((to) => !before.has(to)).sort());
            expect(retried.result.emailsSent).toBe(fromRetry.length);
            expect(retried.result.unknownOutcome).toBe(1);
            expect(new Set(copiesByRecipient(smtp.accepted).keys())).toEqual(new Set(c.recipients));
        } finally {
            await c.close();
            await smtp.close();
        }
    });
});
