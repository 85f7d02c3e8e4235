import Fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { type Child, closeChildren, MAIN, remote, startChild, systemNode } from './child.js';
import { createAccount } from './fixtures.js';
import { createTestStore, startTestServer, store } from './harness.js';
import { newsletter, type RunJson, runsApi, TERMINAL } from './run-fixtures.js';

// The server as an operator runs it (a separate Node process, whose warnings reach its log) logs
// nothing for an ordinary run. Each e-mail under way listens for its run's stop, so a run with more
// than ten under way once logged "MaxListenersExceededWarning: Possible EventTarget memory leak
// detected. 11 abort listeners added to [AbortSignal]", which reads like a leak to whoever runs it.
// Node 24 no longer warns for an AbortSignal; Node 20 and 22, which the server supports, do: the child
// runs on the system's Node, the oldest this machine has.

const ROWS = 60;

describe('runs: the server log of an ordinary run', () => {
    it('holds no warning while many e-mails are under way at once', async () => {
        expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
        // The embedded database belongs to one process: the workflow is made here, the run there.
        const testStore = await createTestStore();
        const api = await startTestServer({ testStore, config: store === 'postgres' ? { role: 'api' as const } : {} });
        const children: Child[] = [];
        try {
            const account = await createAccount(api);
            const local = runsApi(api, account);
            const csv = ['name,email,age,city', ...Array.from({ length: ROWS }, (_, i) => `P${i},p${i}@warnings.example.test,30,Lyon`)].join('\n');
            const workflowId = await local.workflow(newsletter(await local.upload(csv), 'age > 0'));
            if (store === 'embedded') {
                await api.app.stop();
            }

            api.smtp.delay(20);
            const child = await startChild('all', testStore, api.smtp.url, { SMTP_CONNECTIONS: '4' }, systemNode());
            children.push(child);
            const client = remote(child, account);
            const runId = await client.enqueue(workflowId);
            let run: RunJson;
            for (;;) {
                run = await client.get(runId);
                if (TERMINAL.includes(run.status)) {
                    break;
                }

                await new Promise((resolve) => setTimeout(resolve, 100));
            }

            expect(run).toMatchObject({ status: 'SUCCESS', result: { emailsSent: ROWS } });
            expect(api.smtp.peakWaiting).toBe(4);
            expect(child.output.join('')).not.toMatch(/Warning/);
        } finally {
            await closeChildren(children, api, testStore);
        }
    });
});
