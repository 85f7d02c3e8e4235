import Fs from 'node:fs';
import Path from 'node:path';

import { describe, expect, it } from 'vitest';

import { type Child, closeChildren, MAIN, remote, startChild, stopChild } from './child.js';
import { createAccount } from './fixtures.js';
import { startGatedSmtp } from './gated-smtp.js';
import { createTestStore, startTestServer, store, } from './harness.js';
import { newsletter, type RunJson, runsApi, TERMINAL } from './run-fixtures.js';

const ROWS = 20;
const KILL_AT = 8;


/**
 * Kills the worker while the SMTP server holds message #KILL_AT, then lets the server accept it. With
 * `noted`, the worker's journal gets the line it writes the moment it reads a 250, as if the worker
 * had read it and died before the delivery record was written.
 */
const killDuringOutput = async (noted: boolean) => {
    expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
    const smtp = await startGatedSmtp();
    const testStore = await createTestStore();
    // The embedded database belongs to one process: that process serves the API too. On
    // PostgreSQL the API stays here and the workers are separate processes, as in production.
    const api = await startTestServer({ testStore, config: { smtpUrl: smtp.url, ...(store === 'postgres' ? { role: 'api' as const } : {}) } });
    const children: Child[] = [];
    try {
        const account = await createAccount(api);
        const local = runsApi(api, account);
        const recipients = Array.from({ length: ROWS }, (_, i) => `person${i}@crash.example.test`);
        const csv = ['name,email,age,city', ...recipients.map((email, i) => `P${i},${email},${30 + i},Porto`)].join('\n');
        const workflowId = await local.workflow(newsletter(await local.upload(csv), 'age > 0'));

        let client: { enqueue(workflowId: string): Promise<string>; get(runId: string): Promise<RunJson> } = local;
        if (store === 'embedded') {
            await api.app.stop();
            children.push(await startChild('all', testStore, smtp.url));
            client = remote(children[0]!, account);
        }

        const held = smtp.holdAt(KILL_AT);
        const first = await client.enqueue(workflowId);
        const second = await client.enqueue(workflowId);
        if (store === 'postgres') {
            children.push(await startChild('worker', testStore, smtp.url));
        }

        // The worker dies while the server accepts message #KILL_AT: the 250 never reaches it.
        const stuck = await held;
        await stopChild(children[0]!, 'SIGKILL');
        stuck.answer(true);
        expect(smtp.accepted).toHaveLength(KILL_AT);
        if (noted) {
            const dir = Path.join(testStore.dataDir, 'journal');
            const [file, ...others] = Fs.readdirSync(dir).filter((name) => name.startsWith(`${first}.`));
            expect(others).toEqual([]);
            expect(Fs.readFileSync(Path.join(dir, file!), 'utf8')).toContain(`T ["send",${KILL_AT - 1}]\n`);
            Fs.appendFileSync(Path.join(dir, file!), `A ["send",${KILL_AT - 1}]\n`);
        }

        children.push(await startChild(store === 'embedded' ? 'all' : 'worker', testStore, smtp.url));
        if (store === 'embedded') {
            client = remote(children[1]!, account);
        }

        const deadline = Date.now() + 60_000;
        const runs: RunJson[] = [];
        for (const runId of [first, second]) {
            for (;;) {
                const run = await client.get(runId);
                if (TERMINAL.includes(run.status)) {
                    runs.push(run);
                    break;
                }

                if (Date.now() > deadline) {
                    throw new Error(`run ${runId} is still ${run.status}:\n${children.flatMap((c) => c.output).join('')}`);
                }

                await new Promise((resolve) => setTimeout(resolve, 100));
            }
        }

        expect(runs.map((run) => run.status)).toEqual(['SUCCESS', 'SUCCESS']);
        expect(runs.map((run) => run.result)).toEqual([
            { totalRows: ROWS, filteredOut: 0, emailsSent: ROWS, ...(noted ? {} : { possiblyDuplicated: 1 }) },
            { totalRows: ROWS, filteredOut: 0, emailsSent: ROWS }
        ]);

        const copies = new Map<string, number>();
        for (const message of smtp.accepted) {
            copies.set(message.messageId, (copies.get(message.messageId) ?? 0) + 1);
        }

        expect(copies.size).toBe(2 * ROWS);
        expect([...copies].filter(([, n]) => n > 1)).toEqual(noted ? [] : [[`<${first}.send.${KILL_AT - 1}@flowctl.test>`, 2]]);
        expect(smtp.accepted).toHaveLength(noted ? 2 * ROWS : 2 * ROWS + 1);
        expect(new Set(smtp.accepted.map((m) => m.to))).toEqual(new Set(recipients));
        // A run that ended takes its journal with it.
        expect(Fs.readdirSync(Path.join(testStore.dataDir, 'journal'))).toEqual([]);
    } finally {
        await closeChildren(children, api, testStore);
        await smtp.close();
    }
};

describe('runs: a worker killed during OUTPUT', () => {
    it('loses nothing, and sends again with the same Message-ID only the e-mail whose acceptance it could not know', () => killDuringOutput(false));

    it('does not send again an e-mail whose acceptance it had noted in its journal before it died', () => killDuringOutput(true));
});
