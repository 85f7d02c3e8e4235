import Fs from 'node:fs';
import Path from 'node:path';

import { describe, expect, it } from 'vitest';

import { createAccount } from './fixtures.js';
import { createTestStore, startTestServer } from './harness.js';
import { runsApi } from './run-fixtures.js';
import { triggerOnly } from './upload-fixtures.js';

describe('delivery journals at start', () => {
    it('removes the notes of runs that ended without their worker, or no longer exist', async () => {
        const testStore = await createTestStore();
        try {
            // An API-only server: the run waits PENDING until it is cancelled, and no worker ever sees it end.
            const api = await startTestServer({ testStore, config: { role: 'api' } });
            let runId: string;
            try {
                const runs = runsApi(api, await createAccount(api));
                runId = await runs.enqueue(await runs.workflow(triggerOnly()));
                expect((await runs.call('POST', `/api/workflows/runs/${runId}/cancel`)).statusCode).toBe(200);
                expect((await runs.get(runId)).status).toBe('CANCELLED');
            } finally {
                await api.close();
            }

            // As a worker stopped at a hand-back leaves them, and as a deleted run's would stay.
            const dir = Path.join(testStore.dataDir, 'journal');
            Fs.mkdirSync(dir, { recursive: true });
            Fs.writeFileSync(Path.join(dir, `${runId}.a1.log`), 'T ["send",0]\n');
            Fs.writeFileSync(Path.join(dir, 'run_gone.b1.log'), 'T ["send",0]\nA ["send",0]\n');

            const worker = await startTestServer({ testStore });
            try {
                expect(Fs.readdirSync(dir)).toEqual([]);
            } finally {
                await worker.close();
            }
        } finally {
            await testStore.drop();
        }
    });
});
