import Fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { MAIN, startChild } from './child.js';
import { createTestStore } from './harness.js';

// The harness's child servers (child.ts). One that is not ready in time was left running: the test
// never got it to stop, and it wrote into the store the test then removed (ENOTEMPTY), on a loaded
// machine where a start can take longer than the deadline.

/** Processes whose environment names `dataDir` as their data folder (what startChild gives a child). */
const processesOf = (dataDir: string): string[] =>
    Fs.readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .filter((pid) => {
            try {
                return Fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`FLOWCTL_DATA_DIR=${dataDir}`);
            } catch {
                return false;
            }
        });

describe('startChild', () => {
    it('stops a server that is not ready within the deadline before it reports the failure', async () => {
        expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
        const testStore = await createTestStore();
        try {
            await expect(startChild('all', testStore, 'smtp://127.0.0.1:9', {}, process.execPath, 1)).rejects.toThrow('the server did not start');
            expect(processesOf(testStore.dataDir)).toEqual([]);
        } finally {
            await testStore.drop();
        }
    });
});
